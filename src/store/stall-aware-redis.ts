import Redis, { Command } from 'ioredis';
import { closeHandler } from 'ioredis/built/redis/event_handler';
import type { LegacyRedisOptions } from './redis-client';

/** Emitted with the command's error when a connection drops itself after a stall. */
export const STALLED = 'stalled';

/** What this class uses of ioredis' failover detector (not exported by ioredis). */
interface FailoverDetector {
  readonly isDisconnected: boolean;
  /** Its subscriptions, one connection to each Sentinel. */
  readonly sentinels: readonly { readonly client: Redis }[];
  cleanup(): void;
}

/** Pause before a connection that ended by itself is made again. */
const REOPEN_DELAY_MS = 100;

/**
 * A Redis connection that drops and remakes itself when a command times out while it is open: the
 * server is paused (`CLIENT PAUSE`, `DEBUG SLEEP`) or the path went silent without closing, and only
 * a new connection gets past it (through Sentinels it also asks for the primary anew). Every command
 * goes through `sendCommand`, pipelines and scripts included.
 *
 * It never ends unless its owner closes it: ioredis ends a connection for good when a reconnection
 * fails in its connector, as when the Sentinel failover detector of the connection before closes
 * the connector while it looks for the new primary. Closed by its owner between two reconnection
 * attempts, it ends at once and rejects what it queued (ioredis alone would stay `reconnecting`,
 * its queued commands pending for good). Closed with QUIT, it also lets go of its Sentinel failover
 * subscriptions. Its duplicates (BullMQ's blocking connections) are alike.
 */
export class StallAwareRedis extends Redis {
  private closedByOwner = false;

  constructor(options: LegacyRedisOptions);
  constructor(url: string, options: LegacyRedisOptions);
  constructor(first: string | LegacyRedisOptions, options?: LegacyRedisOptions) {
    // ioredis tells its arguments apart by their types.
    super(...([first, options].filter((argument) => argument !== undefined) as [string, LegacyRedisOptions]));
    this.on('end', () => {
      if (this.closedByOwner) this.stopFailoverDetector();
      else setTimeout(() => this.reopen(), REOPEN_DELAY_MS).unref();
    });
  }

  /** Opened again by its owner (or by itself): it keeps itself open again. */
  override connect(callback?: Parameters<Redis['connect']>[0]): Promise<void> {
    this.closedByOwner = false;
    // ioredis closes the detector of a failover once more when the new one starts, its sockets gone by then.
    const connector = this.connectorParts();
    if (connector.failoverDetector?.isDisconnected) connector.failoverDetector = null;
    return super.connect(callback);
  }

  override disconnect(reconnect = false): void {
    if (!reconnect) this.closedByOwner = true;
    const betweenAttempts = !reconnect && this.status === 'reconnecting';
    // ioredis' connector disconnects this connection's socket and its failover subscriptions.
    forgetClosedSocket(this);
    for (const { client } of this.connectorParts().failoverDetector?.sentinels ?? [])
      forgetClosedSocket(client);
    super.disconnect(reconnect);
    // Between two attempts no socket is left whose close would end the connection: end it as one would.
    if (betweenAttempts) closeHandler(this)();
  }

  override duplicate(override?: Partial<LegacyRedisOptions>): Redis {
    return new StallAwareRedis({ ...this.options, ...override });
  }

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    if (command.name === 'quit') this.closedByOwner = true;
    command.promise.catch((error: unknown) => this.dropIfStalled(error));
    return super.sendCommand(command, stream);
  }

  /**
   * Closes the subscriptions a connection through Sentinels holds on each of them to hear of a
   * failover, unless they are closed already. ioredis closes them when its connector is disconnected,
   * which QUIT skips; the connector's own `disconnect()` once the socket is gone would arm a 2 s timer
   * that nothing clears. A subscription whose socket closed already (a Sentinel that went away) would
   * arm the same timer.
   */
  private stopFailoverDetector(): void {
    const detector = this.connectorParts().failoverDetector;
    if (!detector || detector.isDisconnected) return;
    for (const { client } of detector.sentinels) forgetClosedSocket(client);
    detector.cleanup();
  }

  /** What this class uses of ioredis' connector (not exported by ioredis). */
  private connectorParts(): { failoverDetector?: FailoverDetector | null } {
    return (this as unknown as { connector: { failoverDetector?: FailoverDetector | null } }).connector;
  }

  private reopen(): void {
    if (this.status === 'end' && !this.closedByOwner) this.connect().catch(() => undefined);
  }

  private dropIfStalled(error: unknown): void {
    if (!(error instanceof Error) || error.message !== 'Command timed out') return;
    // The first timed-out command of a stall drops the connection; the others find it down already.
    if (this.status !== 'ready') return;
    this.emit(STALLED, error);
    // Not disconnect(true): it ends the stream gracefully, which waits for a stalled server to close
    // its side, or for ioredis' disconnectTimeout (2 s) when it never does.
    this.stream.destroy();
  }
}

/**
 * ioredis' connector ends its last socket on disconnect and arms a 2 s timer to destroy it should it
 * not close; on a socket that closed already nothing clears the timer, and it holds the process.
 */
function forgetClosedSocket(client: Redis): void {
  const { connector } = client as unknown as { connector: { stream?: { destroyed: boolean } } };
  if (connector.stream?.destroyed) connector.stream = undefined;
}
