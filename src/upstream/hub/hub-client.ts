import {
  HttpTransportType,
  HubConnection,
  HubConnectionBuilder,
  HubConnectionState,
  IHttpConnectionOptions,
} from '@microsoft/signalr';
import { BookStream, BookStreamHost } from './book-stream';
import { BookListener, BookSubscription } from './book-subscription';
import { UpstreamTap } from '../upstream-tap';
import { ExactJsonHubProtocol, MalformedHubMessageError } from './exact-json-hub-protocol';
import { joiningHubFrames } from './joined-hub-frames';
import { HubClientLogger, officialClientLogger, SILENT_HUB_LOGGER } from './hub-client-logger';
import { describeHubConnectFailure, reportingSocketErrors } from './hub-connect-failure';
import { marketDataHubUrl } from './hub-url';
import { StreamStarter } from './stream-starter';
import { networkCause } from '../../logging/network-cause';
import { webSocketWithBatchedReads } from '../read-batching';
import { ReconnectBackoff, ReconnectDelays } from '../reconnect-backoff';
import { RejectionSink, UpstreamRejections } from '../upstream-rejections';

/**
 * The official client's option for the WebSocket class it opens in Node (left out of its published
 * types): the project's ws rather than the older copy the client bundles, which checks the UTF-8 of
 * every frame byte by byte in JavaScript where the newer one does it natively, with the frames of one
 * read joined (see joiningHubFrames), and with batched reads when asked. A client that stopped reading
 * the option would fall back to its own copy, slower but the same.
 */
function projectWebSocket(
  readBatchMs: number,
  onSocketError: (error: Error) => void,
): IHttpConnectionOptions {
  return {
    WebSocket: reportingSocketErrors(joiningHubFrames(webSocketWithBatchedReads(readBatchMs)), onSocketError),
  } as IHttpConnectionOptions;
}

/**
 * `connecting`: building a connection, including the waits between failed tries;
 * `connected`: streams can flow; `reconnecting`: the official client is getting a lost connection
 * back; `disconnected`: not started, stopped, or a connection just ended for good (a new one follows).
 */
export type HubClientState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';

export type HubClientStateListener = (state: HubClientState, reason?: string) => void;

/** Totals since the client was made, for metrics. */
export interface HubClientCounters {
  /** Times a lost connection was back: by the official client's reconnect or by a new connection. */
  readonly reconnects: number;
  /** Hub messages that could not be read and stream items that were no valid book; each was skipped. */
  readonly malformedMessages: number;
  /** Book streams opened again after their first opening, whatever the cause. */
  readonly streamRestarts: number;
}

export interface HubClientOptions {
  /** Root of the exchange, possibly with a path: `https://host:8443/trading`. */
  readonly baseUrl: string;
  /** Open the websocket directly, as the exchange's samples do (default true); WebSockets either way. */
  readonly skipNegotiation?: boolean;
  /** Backoff of every retry: starting, reconnecting, reopening a failed stream. */
  readonly reconnect?: Partial<ReconnectDelays>;
  /** The connection counts as lost after this long without any message (default 30 s). */
  readonly serverTimeoutMs?: number;
  /** A ping goes out when nothing else was sent for this long (default 15 s). */
  readonly keepAliveIntervalMs?: number;
  /** While messages keep coming, the socket reads every this many milliseconds (see `batchReads`; default 0, off). */
  readonly readBatchMs?: number;
  readonly logger?: HubClientLogger;
  /** Counts and logs every message and stream item skipped as unreadable (default: logged, rate-limited). */
  readonly rejections?: RejectionSink;
  /** Hears every message received (a recorder). */
  readonly tap?: UpstreamTap;
  /** Wall clock in Unix milliseconds: the receive time of each book message. */
  readonly now?: () => number;
  /** Uniform in [0, 1): the jitter of the backoff. */
  readonly random?: () => number;
}

export const DEFAULT_SERVER_TIMEOUT_MS = 30_000;
export const DEFAULT_KEEP_ALIVE_INTERVAL_MS = 15_000;

/** A connection that ends sooner than this after it opened keeps the backoff growing. */
const STABLE_CONNECTION_MS = 10_000;
/** Streams waiting for their first item (their snapshot) at any time. */
const MAX_STARTING_STREAMS = 8;
/** A stream whose first item takes longer than this frees its start slot anyway. */
const STREAM_START_TIMEOUT_MS = 5_000;

/**
 * The client of the exchange's public market-data hub (spec 4.3, 6.1): one SignalR connection,
 * supervised so that it is always being kept or got back, carrying one `Book` stream per open
 * subscription with exact decimals.
 *
 * The official client's automatic reconnect is set to retry forever. It still never retries a
 * failed `start()`, and it stops for good on a server Close without `allowReconnect`; the
 * supervisor loop covers both by trying again with backoff and building a new connection. Streams
 * do not survive a drop, so every subscription is opened again after each reconnect and on each
 * new connection, and after a stream of its own fails.
 */
export class HubClient {
  private readonly url: string;
  private readonly skipNegotiation: boolean;
  private readonly serverTimeoutMs: number;
  private readonly keepAliveIntervalMs: number;
  /** The websocket class the official client opens, batching reads as configured. */
  private readonly webSocketOption: IHttpConnectionOptions;
  private readonly backoff: ReconnectBackoff;
  private readonly logger: HubClientLogger;
  private readonly rejections: RejectionSink;
  private readonly now: () => number;
  private readonly protocol: ExactJsonHubProtocol;
  private readonly streams = new Set<BookStream>();
  private readonly stateListeners = new Set<HubClientStateListener>();
  private readonly streamHost: BookStreamHost;
  private readonly starter: StreamStarter<BookStream>;
  private currentState: HubClientState = 'disconnected';
  private connection?: HubConnection;
  private supervisor?: Promise<void>;
  private stopping = false;
  private wakeUp?: () => void;
  private reconnectCount = 0;
  private malformedCount = 0;
  private streamRestartCount = 0;
  /** The last error of the connection's websocket, which says why it failed to open or was lost. */
  private socketError?: Error;
  private lastProblem?: string;

  constructor(options: HubClientOptions) {
    this.url = marketDataHubUrl(options.baseUrl);
    this.skipNegotiation = options.skipNegotiation ?? true;
    this.serverTimeoutMs = positive('serverTimeoutMs', options.serverTimeoutMs ?? DEFAULT_SERVER_TIMEOUT_MS);
    this.keepAliveIntervalMs = positive(
      'keepAliveIntervalMs',
      options.keepAliveIntervalMs ?? DEFAULT_KEEP_ALIVE_INTERVAL_MS,
    );
    this.webSocketOption = projectWebSocket(options.readBatchMs ?? 0, (error) => (this.socketError = error));
    this.backoff = new ReconnectBackoff(options.reconnect, options.random);
    this.logger = options.logger ?? SILENT_HUB_LOGGER;
    this.rejections = options.rejections ?? new UpstreamRejections(this.logger);
    this.now = options.now ?? Date.now;
    this.protocol = new ExactJsonHubProtocol((error) => this.skipMalformedMessage(error), options.tap);
    this.starter = new StreamStarter(
      () => this.connectedConnection(),
      MAX_STARTING_STREAMS,
      STREAM_START_TIMEOUT_MS,
    );
    this.streamHost = {
      requestOpen: (stream) => this.starter.request(stream),
      started: (stream) => this.starter.started(stream),
      retryDelay: (failures) => this.backoff.delay(failures),
      now: () => this.now(),
      logger: this.logger,
      countRestart: () => (this.streamRestartCount += 1),
      rejected: (stream, error) => {
        this.malformedCount += 1;
        this.rejections.rejected(
          'hub',
          'invalid-item',
          `${stream.instrument}: skipped a Book item: ${error.message}`,
        );
      },
      forget: (stream) => {
        this.streams.delete(stream);
        this.starter.forget(stream);
      },
    };
  }

  get hubUrl(): string {
    return this.url;
  }

  get state(): HubClientState {
    return this.currentState;
  }

  /** Why the last connection failed or ended, until the next one is up. */
  get problem(): string | undefined {
    return this.lastProblem;
  }

  get counters(): HubClientCounters {
    return {
      reconnects: this.reconnectCount,
      malformedMessages: this.malformedCount,
      streamRestarts: this.streamRestartCount,
    };
  }

  /** Calls `listener` on every state change; returns the function that stops it. */
  onStateChange(listener: HubClientStateListener): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Starts keeping the connection; returns at once. Failures are retried, never thrown. */
  start(): void {
    if (this.supervisor) return;
    this.stopping = false;
    this.supervisor = this.supervise();
  }

  /** Stops the connection and every retry; resolves when nothing of the client runs any more. */
  async stop(): Promise<void> {
    const supervisor = this.supervisor;
    if (!supervisor) return;
    this.stopping = true;
    this.wakeUp?.();
    this.starter.reset();
    for (const stream of this.streams) stream.suspend();
    await this.connection?.stop();
    await supervisor;
    this.connection = undefined;
    this.supervisor = undefined;
    this.setState('disconnected', 'stopped');
  }

  /**
   * Subscribes to `instrument`'s book. The stream opens now if connected, else on connection, and
   * again after every interruption until the subscription is closed.
   */
  openBook(instrument: string, listener: BookListener): BookSubscription {
    if (instrument.trim() === '') throw new RangeError('instrument must not be empty');
    const stream = new BookStream(instrument, listener, this.streamHost);
    this.streams.add(stream);
    this.starter.request(stream);
    return stream;
  }

  private async supervise(): Promise<void> {
    let failures = 0;
    let connectedBefore = false;
    while (!this.stopping) {
      this.setState('connecting');
      const connection = this.build();
      this.connection = connection;
      const closed = new Promise<Error | undefined>((resolve) => connection.onclose(resolve));
      this.socketError = undefined;
      try {
        await connection.start();
      } catch (error) {
        this.lastProblem = describeHubConnectFailure(this.url, error, this.socketError);
        this.logger.warn(this.lastProblem);
        await this.pause(this.backoff.delay(failures));
        failures += 1;
        continue;
      }
      if (this.stopping) break;
      this.socketError = undefined;
      const connectedAt = this.now();
      if (connectedBefore) this.reconnectCount += 1;
      connectedBefore = true;
      this.setState('connected');
      this.openAll();

      const error = await closed;
      this.starter.reset();
      if (this.stopping) break;
      this.setState('disconnected', this.closeReason(error));
      if (this.now() - connectedAt >= STABLE_CONNECTION_MS) failures = 0;
      await this.pause(this.backoff.delay(failures));
      failures += 1;
    }
  }

  private build(): HubConnection {
    const connection = new HubConnectionBuilder()
      .withUrl(this.url, {
        skipNegotiation: this.skipNegotiation,
        transport: HttpTransportType.WebSockets,
        ...this.webSocketOption,
      })
      .withHubProtocol(this.protocol)
      .withAutomaticReconnect(this.backoff)
      .withServerTimeout(this.serverTimeoutMs)
      .withKeepAliveInterval(this.keepAliveIntervalMs)
      .configureLogging(officialClientLogger(this.logger))
      .build();
    connection.onreconnecting((error) => {
      if (!this.isCurrent(connection)) return;
      this.starter.reset();
      this.setState('reconnecting', error ? this.closeReason(error) : undefined);
    });
    connection.onreconnected(() => {
      if (!this.isCurrent(connection)) return;
      this.reconnectCount += 1;
      this.socketError = undefined;
      this.setState('connected');
      this.openAll();
    });
    return connection;
  }

  /** Why a connection ended: the socket's network error when there was one, else the client's. */
  private closeReason(error: Error | undefined): string {
    const cause = networkCause(this.socketError);
    if (cause) return cause;
    return error ? describe(error) : 'closed by the server';
  }

  private isCurrent(connection: HubConnection): boolean {
    return connection === this.connection && !this.stopping;
  }

  private connectedConnection(): HubConnection | undefined {
    const connection = this.connection;
    if (!connection || this.stopping || connection.state !== HubConnectionState.Connected) return undefined;
    return connection;
  }

  private openAll(): void {
    for (const stream of this.streams) this.starter.request(stream);
  }

  /** Waits `ms`, or less when the client stops. */
  private pause(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const wakeUp = () => {
        clearTimeout(timer);
        if (this.wakeUp === wakeUp) this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(wakeUp, ms);
      this.wakeUp = wakeUp;
    });
  }

  private skipMalformedMessage(error: MalformedHubMessageError): void {
    this.malformedCount += 1;
    this.rejections.rejected(
      'hub',
      error.kind,
      `hub ${this.url}: skipped a malformed message: ${error.message}`,
    );
  }

  private setState(state: HubClientState, reason?: string): void {
    if (state === 'connected') this.lastProblem = undefined;
    else if (reason && reason !== 'stopped') this.lastProblem = reason;
    if (state === this.currentState) return;
    this.currentState = state;
    this.logger.log(`hub ${this.url}: ${state}${reason ? ` (${reason})` : ''}`);
    for (const listener of [...this.stateListeners]) {
      try {
        listener(state, reason);
      } catch (error) {
        this.logger.warn(`hub state listener failed: ${describe(error)}`);
      }
    }
  }
}

function positive(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value))
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
