import { ExactJson } from '../exact-json';
import { ErrorCode, GatewayCallError, GatewayDisconnectedError, GatewayTimeoutError } from './gateway-errors';
import { IncomingFrame } from './gateway-frame';
import { GatewaySocket } from './gateway-socket';

/** A gateway function and its payload (sent as the JSON string `o`). */
export interface GatewayCall {
  readonly name: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/**
 * Reads which instruments an event's payload is about (rows of several instruments give several);
 * never throws: a payload it cannot read gives none.
 */
export type InstrumentReader = (payload: ExactJson) => Iterable<number>;

/**
 * A subscription the client keeps across reconnects: it is issued on every new connection (after
 * authentication), and its reply, a fresh snapshot, goes to `onReply` before any of its events.
 */
export interface GatewaySubscriptionSpec {
  readonly subscribe: GatewayCall;
  readonly unsubscribe: GatewayCall;
  /** Event names (`n`) that belong to the subscription. */
  readonly events: readonly string[];
  /** Whether an event of one of those names is this subscription's (events carry no subscription id). */
  matches(eventPayload: ExactJson): boolean;
  /**
   * The one instrument whose events the subscription takes, and how to read an event's instruments,
   * so that the client asks `matches` of this subscription only for events about its instrument.
   * `instrumentsOf` must be one function shared by every subscription of these event names, and name
   * every instrument `matches` could accept.
   */
  readonly routing?: { readonly instrumentId: number; readonly instrumentsOf: InstrumentReader };
  onReply(payload: ExactJson, receivedAt: number): void;
  onEvent(name: string, payload: ExactJson, receivedAt: number): void;
  /** The subscribe call failed (other than by a lost connection), or a handler threw. */
  onError?(error: Error): void;
}

export interface GatewaySubscription {
  /** True while the subscription's reply arrived on the live connection and its events flow. */
  readonly active: boolean;
  /**
   * Unsubscribes and subscribes again on the live connection; resolves once the fresh reply went to
   * `onReply`. Without a connection (or when it drops meanwhile) it resolves without a reply: the
   * next connection subscribes afresh. Rejects when the gateway refuses the subscription.
   */
  restart(): Promise<void>;
  /** Unsubscribes (when connected) and forgets the subscription. */
  close(): Promise<void>;
}

/** What a subscription needs from the client that holds it. */
export interface SubscriptionHost {
  readonly requestTimeoutMs: number;
  liveSocket(): GatewaySocket | undefined;
  /**
   * Sends a subscribe call on the socket when one of its few slots is free. Each reply is a snapshot
   * (up to a thousand trades); a thousand sent at once would queue behind one another past the call
   * timeout, which cuts the connection, and the next one would repeat the burst.
   */
  paced<T>(socket: GatewaySocket, call: () => Promise<T>): Promise<T>;
  remove(subscription: Subscription): void;
  report(subscription: Subscription, error: Error): void;
}

/** A registered subscription and its state on the current connection. */
export class Subscription implements GatewaySubscription {
  /** The socket on which the current reply arrived; events of other sockets are stale. */
  private activeOn?: GatewaySocket;
  /** Bumped by every subscribe attempt, so that a superseded attempt's reply is dropped. */
  private attempt = 0;
  private closed = false;
  /** Restarts and closes run one after the other. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly spec: GatewaySubscriptionSpec,
    private readonly host: SubscriptionHost,
  ) {}

  get active(): boolean {
    return this.activeOn !== undefined && this.activeOn === this.host.liveSocket();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  restart(): Promise<void> {
    return this.enqueue(async () => {
      const socket = this.host.liveSocket();
      if (this.closed || !socket) return;
      this.deactivate();
      try {
        await this.unsubscribeOn(socket);
        await this.subscribeOn(socket);
      } catch (error) {
        // The connection went down meanwhile: the next one subscribes afresh.
        if (!(error instanceof GatewayDisconnectedError)) throw error;
      }
    });
  }

  close(): Promise<void> {
    return this.enqueue(async () => {
      if (this.closed) return;
      this.closed = true;
      this.host.remove(this);
      this.deactivate();
      const socket = this.host.liveSocket();
      if (socket) await this.unsubscribeOn(socket).catch(() => undefined);
    });
  }

  /** Subscribes on a new connection; failures go to the spec's `onError`, never to the caller. */
  resubscribe(socket: GatewaySocket): void {
    this.subscribeOn(socket).catch((error: Error) => {
      if (!(error instanceof GatewayDisconnectedError)) this.host.report(this, error);
    });
  }

  /** Hands an event to the spec when it is this subscription's and arrived on its socket. */
  deliver(socket: GatewaySocket, frame: IncomingFrame, receivedAt: number): void {
    if (this.activeOn !== socket || !this.spec.events.includes(frame.name)) return;
    try {
      if (this.spec.matches(frame.payload)) this.spec.onEvent(frame.name, frame.payload, receivedAt);
    } catch (error) {
      this.host.report(this, error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Subscribes and delivers the reply. A 909 (the gateway still holds an earlier subscription) is
   * answered by unsubscribing and subscribing once more, to get the snapshot. A subscribe that times
   * out means the connection is not healthy: it is cut, and the next one subscribes again.
   */
  private async subscribeOn(socket: GatewaySocket): Promise<void> {
    try {
      await this.send(socket);
    } catch (error) {
      if (error instanceof GatewayCallError && error.code === ErrorCode.AlreadySubscribed && !this.closed) {
        await this.unsubscribeOn(socket);
        await this.send(socket);
        return;
      }
      throw error;
    }
  }

  private async send(socket: GatewaySocket): Promise<void> {
    const attempt = ++this.attempt;
    const { name, payload } = this.spec.subscribe;
    try {
      await this.host.paced(socket, () =>
        socket.request(name, payload, {
          timeoutMs: this.host.requestTimeoutMs,
          onReply: (reply, receivedAt) => {
            if (attempt !== this.attempt || this.closed) return;
            this.activeOn = socket;
            try {
              this.spec.onReply(reply, receivedAt);
            } catch (error) {
              this.host.report(this, error instanceof Error ? error : new Error(String(error)));
            }
          },
        }),
      );
    } catch (error) {
      if (error instanceof GatewayTimeoutError) socket.terminate(`${name} timed out`);
      throw error;
    }
  }

  /** Unsubscribes; "not subscribed" (104) is fine, other failures pass. */
  private async unsubscribeOn(socket: GatewaySocket): Promise<void> {
    const { name, payload } = this.spec.unsubscribe;
    try {
      await socket.request(name, payload, { timeoutMs: this.host.requestTimeoutMs });
    } catch (error) {
      if (!(error instanceof GatewayCallError && error.code === ErrorCode.ResourceNotFound)) throw error;
    }
  }

  private deactivate(): void {
    this.attempt++;
    this.activeOn = undefined;
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
