import { UpstreamTap } from '../upstream-tap';
import { GatewayCredentials } from './gateway-login';
import { ReconnectDelays } from '../reconnect-backoff';
import { RejectionSink } from '../upstream-rejections';

/** Where the client reports its connection's life; a Nest Logger fits. */
export interface GatewayLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface GatewayClientOptions {
  /** Root of the websocket gateway, `wss://host`; the client connects to `{wsUrl}/WSGateway/`. */
  readonly wsUrl: string;
  /** Root of the login call `{authUrl}/api/v1/trade/auth`; required with credentials. */
  readonly authUrl?: string;
  /** Path of the login under `authUrl` (default `/api/v1/trade/auth`; some deployments use `/api/v1/b2trade/auth`). */
  readonly loginPath?: string;
  /** Without them the client connects without a session and can make public calls only. */
  readonly credentials?: GatewayCredentials;
  /** Between Pings (default 15 s); the gateway never pings, so the client must. */
  readonly pingIntervalMs?: number;
  /** How long a Ping may go unanswered before the connection counts as dead (default 10 s). */
  readonly pongTimeoutMs?: number;
  /** Default time limit of a call, waiting for a connection included (default 10 s). */
  readonly requestTimeoutMs?: number;
  /** Time limit of the login call and of the websocket upgrade (default 10 s). */
  readonly connectTimeoutMs?: number;
  readonly reconnect?: Partial<ReconnectDelays>;
  readonly logger?: GatewayLogger;
  /** Counts and logs every frame and payload skipped as unreadable (default: logged, rate-limited). */
  readonly rejections?: RejectionSink;
  /** Hears every frame received (a recorder). */
  readonly tap?: UpstreamTap;
  /** Wall clock in Unix milliseconds: the receive times handed to subscriptions. */
  readonly now?: () => number;
  /** Uniform in [0, 1): the jitter of the reconnect backoff. */
  readonly random?: () => number;
  /** Sent on the login and the upgrade; the exchange's samples always send one. */
  readonly userAgent?: string;
  /** While frames keep coming, the socket reads every this many milliseconds (see `batchReads`; default 0, off). */
  readonly readBatchMs?: number;
}

export const GATEWAY_DEFAULTS = {
  pingIntervalMs: 15_000,
  pongTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
  userAgent: 'market-data-gateway',
  loginPath: '/api/v1/trade/auth',
} as const;

export const SILENT_LOGGER: GatewayLogger = {
  log: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** The OMS every call names; 1 in every sample of the exchange. */
export const DEFAULT_OMS_ID = 1;
