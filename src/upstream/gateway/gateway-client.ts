import { UpstreamTap } from '../upstream-tap';
import { ExactJson, isJsonObject } from '../exact-json';
import {
  GATEWAY_DEFAULTS,
  GatewayClientOptions,
  GatewayLogger,
  SILENT_LOGGER,
} from './gateway-client-options';
import {
  GatewayAuthenticationError,
  GatewayConnectError,
  GatewayDisconnectedError,
  GatewayLoginError,
  GatewayTimeoutError,
} from './gateway-errors';
import { CallPacer } from './call-pacer';
import { DecodeFailure, IncomingFrame } from './gateway-frame';
import { GatewayPayloadError } from './gateway-payload-error';
import { GatewaySession, login } from './gateway-login';
import { GatewaySocket } from './gateway-socket';
import { SubscriptionRouter } from './subscription-router';
import {
  GatewaySubscription,
  GatewaySubscriptionSpec,
  Subscription,
  SubscriptionHost,
} from './gateway-subscription';
import { ReconnectBackoff } from '../reconnect-backoff';
import { RejectionSink, UpstreamRejections } from '../upstream-rejections';

export type GatewayConnectionState =
  'connecting' | 'authenticating' | 'connected' | 'reconnecting' | 'disconnected';

export type StateListener = (state: GatewayConnectionState, previous: GatewayConnectionState) => void;

/** Totals since the client was made, for metrics. */
export interface GatewayClientCounters {
  /** Connections that reached `connected` after the first one. */
  readonly reconnects: number;
  /** Successful logins. */
  readonly logins: number;
  readonly loginFailures: number;
  /** WebAuthenticateUser answers `Authenticated: false`. */
  readonly authenticationFailures: number;
  /** Frames that could not be read and were skipped. */
  readonly malformedFrames: number;
  readonly pings: number;
  readonly pongs: number;
  /** Pings left unanswered, each of which cost the connection. */
  readonly pongTimeouts: number;
}

export interface GatewayRequestOptions {
  /** Time limit, waiting for a connection included (default: the client's requestTimeoutMs). */
  readonly timeoutMs?: number;
}

/** How long a closing handshake may take at stop before the socket is cut. */
const CLOSE_GRACE_MS = 1_000;
/** Subscribe calls awaiting their snapshot on one connection; the others queue in order. */
const SUBSCRIBES_IN_FLIGHT = 16;
const GATEWAY_PATH = '/WSGateway/';

interface Attempt {
  /** The connection reached `connected` (so the backoff starts over). */
  readonly connected: boolean;
  /** The session was refused and a fresh login may fix it at once. */
  readonly retryAtOnce: boolean;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Client of the exchange's websocket gateway (spec 4.6). `start()` runs a supervisor that never
 * throws: log in (with credentials), connect to `{wsUrl}/WSGateway/?session_token=...`, authenticate
 * with the login's `token`, subscribe every registered subscription again, keep the connection alive
 * with Pings, and after any loss (close, error, unanswered Ping, refused authentication) connect
 * again with jittered exponential backoff. A refused session (upgrade 401, `Authenticated: false`)
 * leads to a fresh login. Calls are correlated by the `i` their replies echo; events are routed to
 * subscriptions by name and by the subscription's own match on the payload. Credentials and tokens
 * never appear in logs or errors.
 */
export class GatewayClient {
  private readonly requestTimeoutMs: number;
  private readonly wsUrl: string;
  /** The gateway's URL for logs: no user info, no session token. */
  private readonly displayUrl: string;
  private readonly logIn?: (signal: AbortSignal) => Promise<GatewaySession>;
  #session?: GatewaySession;
  private readonly pingIntervalMs: number;
  private readonly pongTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly backoff: ReconnectBackoff;
  private readonly logger: GatewayLogger;
  private readonly rejections: RejectionSink;
  private readonly tap?: UpstreamTap;
  private readonly now: () => number;
  private readonly userAgent: string;
  private readonly readBatchMs: number;
  private readonly subscriptions = new SubscriptionRouter();
  /** Subscribe calls in flight on each connection, at most SUBSCRIBES_IN_FLIGHT. */
  private readonly subscribePacers = new WeakMap<GatewaySocket, CallPacer>();
  private readonly stateListeners = new Set<StateListener>();
  private readonly count = {
    reconnects: 0,
    logins: 0,
    loginFailures: 0,
    authenticationFailures: 0,
    malformedFrames: 0,
    pings: 0,
    pongs: 0,
    pongTimeouts: 0,
  };
  private currentState: GatewayConnectionState = 'disconnected';
  private lastProblem?: string;
  /** The socket being opened or in use. */
  private socket?: GatewaySocket;
  /** The socket while the client is `connected`. */
  private ready?: GatewaySocket;
  private isAuthenticated = false;
  private everConnected = false;
  private running?: Promise<void>;
  private abort?: AbortController;
  /** What subscriptions see of the client. */
  private readonly host: SubscriptionHost;

  constructor(options: GatewayClientOptions) {
    this.wsUrl = checkUrl(options.wsUrl, ['ws:', 'wss:'], 'wsUrl');
    const shown = new URL(`${this.wsUrl}${GATEWAY_PATH}`);
    shown.username = '';
    shown.password = '';
    this.displayUrl = shown.toString();
    this.pingIntervalMs = options.pingIntervalMs ?? GATEWAY_DEFAULTS.pingIntervalMs;
    this.pongTimeoutMs = options.pongTimeoutMs ?? GATEWAY_DEFAULTS.pongTimeoutMs;
    this.requestTimeoutMs = options.requestTimeoutMs ?? GATEWAY_DEFAULTS.requestTimeoutMs;
    this.host = {
      requestTimeoutMs: this.requestTimeoutMs,
      liveSocket: () => this.ready,
      remove: (subscription) => this.subscriptions.delete(subscription),
      report: (subscription, error) => this.report(subscription, error),
      paced: (socket, call) => {
        let pacer = this.subscribePacers.get(socket);
        if (!pacer) this.subscribePacers.set(socket, (pacer = new CallPacer(SUBSCRIBES_IN_FLIGHT)));
        return pacer.run(call);
      },
    };
    this.connectTimeoutMs = options.connectTimeoutMs ?? GATEWAY_DEFAULTS.connectTimeoutMs;
    this.backoff = new ReconnectBackoff(options.reconnect, options.random);
    this.logger = options.logger ?? SILENT_LOGGER;
    this.rejections = options.rejections ?? new UpstreamRejections(this.logger);
    this.tap = options.tap;
    this.now = options.now ?? Date.now;
    this.userAgent = options.userAgent ?? GATEWAY_DEFAULTS.userAgent;
    this.readBatchMs = options.readBatchMs ?? 0;
    for (const [name, value] of Object.entries({
      pingIntervalMs: this.pingIntervalMs,
      pongTimeoutMs: this.pongTimeoutMs,
      requestTimeoutMs: this.requestTimeoutMs,
      connectTimeoutMs: this.connectTimeoutMs,
    })) {
      if (!(value > 0)) throw new RangeError(`${name} must be positive`);
    }
    const { credentials } = options;
    if (credentials) {
      if (!options.authUrl) throw new RangeError('authUrl is required with credentials');
      const authUrl = checkUrl(options.authUrl, ['http:', 'https:'], 'authUrl');
      // Kept in a closure only, so that no property of the client holds them.
      const loginPath = options.loginPath ?? GATEWAY_DEFAULTS.loginPath;
      this.logIn = (signal) =>
        login(authUrl, credentials, {
          path: loginPath,
          timeoutMs: this.connectTimeoutMs,
          userAgent: this.userAgent,
          signal,
        });
    }
  }

  get state(): GatewayConnectionState {
    return this.currentState;
  }

  /** Why the last connection failed or ended, until the next one is up. */
  get problem(): string | undefined {
    return this.lastProblem;
  }

  /** True while the live connection is authenticated as the login's user. */
  get authenticated(): boolean {
    return this.isAuthenticated && this.ready !== undefined;
  }

  get counters(): GatewayClientCounters {
    return { ...this.count };
  }

  /** Calls `listener` on every change of state; returns the function that stops it. */
  onStateChange(listener: StateListener): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Starts the supervisor; it runs until `stop()`. Calling it again while running does nothing. */
  start(): void {
    if (this.running) return;
    const abort = new AbortController();
    this.abort = abort;
    this.everConnected = false;
    this.running = this.supervise(abort.signal).catch((error: unknown) =>
      this.logger.error(`gateway supervisor ended unexpectedly: ${describe(error)}`),
    );
  }

  /** Closes the connection, ends the supervisor and rejects calls waiting for a connection. */
  async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.abort?.abort();
    await this.socket?.close('client stopped', CLOSE_GRACE_MS);
    await running;
    this.running = undefined;
    this.setState('disconnected');
  }

  /** Resolves once the client is `connected`; rejects on timeout or when the client is not running. */
  whenConnected(timeoutMs = this.requestTimeoutMs): Promise<void> {
    if (this.ready) return Promise.resolve();
    if (!this.running || this.abort?.signal.aborted)
      return Promise.reject(new GatewayDisconnectedError('the gateway client is not running'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stopListening();
        reject(new GatewayTimeoutError(`not connected to the gateway within ${timeoutMs} ms`));
      }, timeoutMs);
      const stopListening = this.onStateChange((state) => {
        if (state !== 'connected' && state !== 'disconnected') return;
        clearTimeout(timer);
        stopListening();
        if (state === 'connected') resolve();
        else reject(new GatewayDisconnectedError('the gateway client stopped'));
      });
    });
  }

  /**
   * Calls a gateway function and resolves with its reply's payload (numbers as exact text). Waits for
   * a connection first, within the same time limit. Rejects with GatewayCallError (error frame or
   * failed result), GatewayTimeoutError or GatewayDisconnectedError.
   */
  async request(
    functionName: string,
    payload: Readonly<Record<string, unknown>> = {},
    options: GatewayRequestOptions = {},
  ): Promise<ExactJson> {
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    const started = performance.now();
    if (!this.ready) await this.whenConnected(timeoutMs);
    const remaining = Math.max(1, Math.round(timeoutMs - (performance.now() - started)));
    const socket = this.ready;
    if (!socket) throw new GatewayDisconnectedError(`${functionName}: not connected`);
    return socket.request(functionName, payload, { timeoutMs: remaining });
  }

  /** Registers a subscription, issued now when connected and again on every new connection. */
  subscribe(spec: GatewaySubscriptionSpec): GatewaySubscription {
    const subscription = new Subscription(spec, this.host);
    this.subscriptions.add(subscription);
    if (this.ready) subscription.resubscribe(this.ready);
    return subscription;
  }

  private report(subscription: Subscription, error: Error): void {
    const what = `gateway subscription ${subscription.spec.subscribe.name}: ${error.message}`;
    if (error instanceof GatewayPayloadError) this.rejections.rejected('gateway', 'invalid-payload', what);
    else this.logger.warn(what);
    try {
      subscription.spec.onError?.(error);
    } catch (handlerError) {
      this.logger.error(`gateway subscription error handler failed: ${describe(handlerError)}`);
    }
  }

  private async supervise(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      const attempt = await this.connectOnce(signal);
      if (signal.aborted) break;
      this.setState('reconnecting');
      if (attempt.connected) failures = 0;
      if (attempt.retryAtOnce) continue;
      failures += 1;
      const delay = this.backoff.delay(failures - 1);
      this.logger.log(`gateway: connecting again in ${delay} ms`);
      await sleep(delay, signal);
    }
  }

  /** One connection from login to loss. Never throws. */
  private async connectOnce(signal: AbortSignal): Promise<Attempt> {
    let freshLogin = false;
    let socket: GatewaySocket | undefined;
    try {
      this.setState(this.everConnected ? 'reconnecting' : 'connecting');
      if (this.logIn && !this.#session) {
        this.#session = await this.logIn(signal);
        freshLogin = true;
        this.count.logins += 1;
        this.logger.log('gateway: logged in');
      }
      if (signal.aborted) return { connected: false, retryAtOnce: false };
      socket = this.openSocket(this.#session);
      await socket.opened;
      if (this.#session) await this.authenticate(socket, this.#session);
      this.ready = socket;
      if (this.everConnected) this.count.reconnects += 1;
      this.everConnected = true;
      this.logger.log(`gateway: connected to ${this.displayUrl}${this.#session ? ' (authenticated)' : ''}`);
      this.keepAlive(socket);
      // Before announcing the state, so that a listener that subscribes is not subscribed twice.
      for (const subscription of this.subscriptions) subscription.resubscribe(socket);
      this.lastProblem = undefined;
      this.setState('connected');
      const closed = await socket.closed;
      this.lastProblem = `connection lost (${closed.code}: ${closed.reason})`;
      if (!signal.aborted) this.logger.warn(`gateway: ${this.lastProblem}`);
      return { connected: true, retryAtOnce: false };
    } catch (error) {
      socket?.terminate('connection failed');
      if (signal.aborted) return { connected: false, retryAtOnce: false };
      if (error instanceof GatewayLoginError) this.count.loginFailures += 1;
      const refused =
        error instanceof GatewayAuthenticationError ||
        (error instanceof GatewayConnectError && error.status === 401);
      if (refused) this.#session = undefined;
      this.lastProblem = describe(error);
      this.logger.warn(`gateway: ${describe(error)}${refused && this.logIn ? '; logging in again' : ''}`);
      return { connected: false, retryAtOnce: refused && !freshLogin && this.logIn !== undefined };
    } finally {
      if (this.ready === socket) this.ready = undefined;
      if (this.socket === socket) this.socket = undefined;
      this.isAuthenticated = false;
    }
  }

  private openSocket(session: GatewaySession | undefined): GatewaySocket {
    const query = session ? `?session_token=${encodeURIComponent(session.sessionToken)}` : '';
    const socket: GatewaySocket = new GatewaySocket(`${this.wsUrl}${GATEWAY_PATH}${query}`, {
      handshakeTimeoutMs: this.connectTimeoutMs,
      userAgent: this.userAgent,
      readBatchMs: this.readBatchMs,
      shownUrl: this.displayUrl,
      now: this.now,
      tap: this.tap,
      hooks: {
        onEvent: (frame, receivedAt) => this.route(socket, frame, receivedAt),
        onMalformed: (kind, reason) => this.malformed(kind, reason),
      },
    });
    this.socket = socket;
    return socket;
  }

  private async authenticate(socket: GatewaySocket, session: GatewaySession): Promise<void> {
    this.setState('authenticating');
    // Pings start once authenticated, so until then this call is the liveness check: a gateway that
    // leaves it unanswered longer than a Ping may take is as dead as one that leaves a Ping unanswered.
    const reply = await socket.request(
      'WebAuthenticateUser',
      { SessionToken: session.token },
      { timeoutMs: Math.min(this.requestTimeoutMs, this.pongTimeoutMs) },
    );
    if (!isJsonObject(reply) || reply.Authenticated !== true) {
      this.count.authenticationFailures += 1;
      throw new GatewayAuthenticationError('WebAuthenticateUser refused the session');
    }
    this.isAuthenticated = true;
  }

  private keepAlive(socket: GatewaySocket): void {
    socket.startKeepAlive({
      intervalMs: this.pingIntervalMs,
      timeoutMs: this.pongTimeoutMs,
      onPing: () => (this.count.pings += 1),
      onPong: () => (this.count.pongs += 1),
      onTimeout: () => {
        this.count.pongTimeouts += 1;
        this.logger.warn(`gateway: no answer to Ping within ${this.pongTimeoutMs} ms; reconnecting`);
      },
    });
  }

  private route(socket: GatewaySocket, frame: IncomingFrame, receivedAt: number): void {
    for (const subscription of this.subscriptions.candidates(frame))
      subscription.deliver(socket, frame, receivedAt);
  }

  /** Counts every unreadable frame; logs the reason (never the frame, which may hold a token). */
  private malformed(kind: DecodeFailure['kind'], reason: string): void {
    this.count.malformedFrames += 1;
    this.rejections.rejected(
      'gateway',
      kind,
      `gateway: skipped an unreadable frame (${reason}); ${this.count.malformedFrames} so far`,
    );
  }

  private setState(state: GatewayConnectionState): void {
    const previous = this.currentState;
    if (state === previous) return;
    this.currentState = state;
    for (const listener of [...this.stateListeners]) {
      try {
        listener(state, previous);
      } catch (error) {
        this.logger.error(`gateway state listener failed: ${describe(error)}`);
      }
    }
  }
}

/** The URL without a trailing slash, when its protocol is one of `protocols`. */
function checkUrl(url: string, protocols: readonly string[], name: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RangeError(`${name} is not a URL`);
  }
  if (!protocols.includes(parsed.protocol))
    throw new RangeError(`${name} must use ${protocols.join(' or ')}`);
  return url.replace(/\/+$/, '');
}
