import { LuaScript, ScriptCall } from '../../store/lua-script';
import { RedisClient } from '../../store/redis-client';
import { closeConnection } from '../../store/redis-connection';

/** Where the budget reports that it lost or found Redis again; a Nest Logger fits. */
export interface BudgetLogger {
  warn(message: string): void;
}

/**
 * The shared budget's connection to Redis and whether to rely on it. After a failed call, permits
 * follow each process's own count for `fallbackMs` before Redis is asked again, so that a server
 * that hangs does not delay every request by a command timeout. Outages are logged once.
 */
export class RedisBudgetConnection {
  private fallbackUntil = -Infinity;
  private failing = false;
  private closed = false;

  constructor(
    private readonly client: RedisClient,
    private readonly fallbackMs: number,
    private readonly logger: BudgetLogger,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether permits should come from Redis now. */
  usable(): boolean {
    if (this.closed) return false;
    if (this.client.status !== 'ready') {
      this.noteFailure(`Redis connection ${this.client.status}`);
      return false;
    }
    return performance.now() >= this.fallbackUntil;
  }

  /** Runs one script call and decodes its reply; a failure of either starts a fallback period. */
  async run<T = unknown>(
    script: LuaScript,
    call: ScriptCall,
    decode: (reply: unknown) => T = (reply) => reply as T,
  ): Promise<T> {
    try {
      const [reply] = await script.runAll(this.client, [call]);
      const decoded = decode(reply);
      if (this.failing) {
        this.failing = false;
        this.logger.warn('REST budget: Redis answers again; permits are shared again');
      }
      return decoded;
    } catch (error) {
      this.fallbackUntil = performance.now() + this.fallbackMs;
      this.noteFailure(error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  private noteFailure(problem: string): void {
    if (this.failing || this.closed) return;
    this.failing = true;
    this.logger.warn(
      `REST budget: ${problem}; permits follow this process's own requests until Redis answers`,
    );
  }

  /** Resolves true once the connection is up, false when `timeoutMs` passed first. */
  connected(timeoutMs: number): Promise<boolean> {
    if (this.client.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (ready: boolean): void => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        resolve(ready);
      };
      const onReady = (): void => finish(true);
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.client.on('ready', onReady);
    });
  }

  /** No more calls; closes the client too when `closeClient`. */
  async close(closeClient: boolean): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (closeClient) await closeConnection(this.client);
  }
}
