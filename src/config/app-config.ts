import { IsOptional } from 'class-validator';
import { Role } from './role';
import {
  Email,
  FilePath,
  Flag,
  Format,
  Identifier,
  Integer,
  Milliseconds,
  OneOf,
  Port,
  Text,
  Url,
} from './setting-rules';

export const BOOK_SOURCES = ['hub', 'gateway'] as const;
export type BookSource = (typeof BOOK_SOURCES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every setting of the service, read from the environment once at boot: what an operator decides
 * (addresses, credentials, limits, switches); tuning is built in (`Tuning`). Each doc comment is the
 * setting's description in docs/configuration.md (`npm run config-table`). Defaults are the values a
 * single process on a laptop needs (`npm ci && npm start`).
 */
export class AppConfig {
  // The process: what it runs, what it logs, how it stops.

  /** Which parts run in this process. */
  @OneOf(Object.values(Role))
  ROLE: Role = Role.All;

  /** The least severe level logged: fatal, error, warn, info, debug, trace, or silent for none. */
  @OneOf(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  /**
   * On SIGTERM/SIGINT the process reports not ready at once and keeps serving this long before it
   * stops accepting connections, so that load balancers take it out first.
   */
  @Milliseconds({ min: 0, max: 600_000 })
  SHUTDOWN_DELAY_MS = 0;

  // HTTP server.

  /** Port of the HTTP API. */
  @Port()
  PORT = 3000;

  /** Address the HTTP servers bind to. */
  @Text()
  HOST = '0.0.0.0';

  /** Requests per minute each client address may make to the API (health and metrics excluded); 0 turns the limit off. */
  @Integer({ min: 0 })
  RATE_LIMIT_PER_MINUTE = 1_200;

  /**
   * Which proxies' `X-Forwarded-For` names the client (its address keys the rate limit): `false`,
   * `true` (every one), a hop count, or a comma-separated list of addresses and CIDR ranges.
   */
  @Format(
    /^(true|false|\d{1,2}|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/i,
    'true, false, a hop count, or a comma-separated list of addresses and CIDR ranges',
  )
  TRUST_PROXY = 'false';

  /** Origins allowed to read the API from a browser (CORS), comma-separated; empty allows none. */
  @IsOptional()
  @Format(
    /^(\*|https?:\/\/[\w.-]+(:\d+)?)(\s*,\s*https?:\/\/[\w.-]+(:\d+)?)*$/,
    '* or comma-separated origins such as https://example.com',
  )
  CORS_ORIGINS?: string;

  /** Email address the API documents (/docs-json, /docs/asyncapi.json) give for questions about the API. */
  @IsOptional()
  @Email()
  API_CONTACT_EMAIL?: string = undefined;

  /** Web page the API documents give for the API's support, such as the exchange's page for developers. */
  @IsOptional()
  @Url(['https', 'http'])
  API_CONTACT_URL?: string = undefined;

  // The operator console (`/console`) and the public status page (`/status`).

  /** Serves the operator console, the internal view of every market, connection and replica. */
  @Flag()
  CONSOLE_ENABLED = true;

  /** Serves the public status page: the markets' state and data age, and recent incidents. */
  @Flag()
  STATUS_PAGE_ENABLED = true;

  /** A port of its own for the console, which the API's port then does not serve; unset: the API's port. */
  @IsOptional()
  @Port()
  CONSOLE_PORT?: number = undefined;

  /**
   * Client addresses the console answers (others get 403), comma-separated addresses, CIDR ranges,
   * or `loopback`, `linklocal`, `uniquelocal`; `*` allows every address.
   */
  @Format(
    /^(\*|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/,
    '* or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal',
  )
  CONSOLE_ALLOW = 'loopback,uniquelocal';

  // Listing health at `/listing-health`: what aggregators will judge each market by.

  /** Assets counted as one US dollar, in order of preference, comma-separated; others are priced through markets against them. */
  @Format(/^[A-Z0-9]+(,[A-Z0-9]+)*$/, 'comma-separated upper-case asset symbols such as USD,USDT')
  USD_REFERENCE_ASSETS = 'USD,USDT,USDC';

  // Charts: TradingView's data integration and the Charting Library's UDF datafeed.

  /**
   * The exchange's name as TradingView and the Charting Library show it beside each symbol, upper
   * case; unset: `SANDBOX` for the built-in sandbox, else `EXCHANGE`.
   */
  @IsOptional()
  @Format(/^[A-Z0-9][A-Z0-9._]{0,31}$/, 'upper-case letters, digits, `.` and `_`, at most 32, such as ACME')
  CHARTS_EXCHANGE_NAME?: string = undefined;

  // Redis, where the api and ingest roles share state.

  /** Redis connection; unset keeps state in memory and runs scheduled work in-process. */
  @IsOptional()
  @Url(['redis', 'rediss'])
  REDIS_URL?: string = undefined;

  /** A file holding REDIS_URL (a mounted secret), instead of the variable. */
  @IsOptional()
  @FilePath()
  REDIS_URL_FILE?: string = undefined;

  /** `REDIS_URL` names one node of a Redis Cluster; the client discovers the others. */
  @Flag()
  REDIS_CLUSTER = false;

  /**
   * Sentinels that watch a replicated Redis, comma-separated `host:port`; set, the gateway asks them
   * for the primary of REDIS_SENTINEL_NAME and follows it across failovers. `REDIS_URL` still gives
   * the data nodes' credentials, database and TLS; its host and port are not used.
   */
  @IsOptional()
  @Format(
    /^[\w.-]+:\d{1,5}(\s*,\s*[\w.-]+:\d{1,5})*$/,
    'comma-separated host:port pairs such as sentinel-0:26379,sentinel-1:26379',
  )
  REDIS_SENTINELS?: string = undefined;

  /** The name under which the Sentinels know the primary (`sentinel monitor <name> ...`). */
  @Identifier(64, '_.-')
  REDIS_SENTINEL_NAME = 'mymaster';

  /** Password of the Sentinels themselves (their `requirepass`), if they ask for one. */
  @IsOptional()
  @Text()
  REDIS_SENTINEL_PASSWORD?: string = undefined;

  /** A file holding REDIS_SENTINEL_PASSWORD (a mounted secret), instead of the variable. */
  @IsOptional()
  @FilePath()
  REDIS_SENTINEL_PASSWORD_FILE?: string = undefined;

  /** Prefix of every Redis key and channel, so that several deployments can share one Redis. */
  @Identifier(32, '_.-')
  REDIS_PREFIX = 'mdg';

  // The upstream exchange: addresses, login and connections.

  /** Root of the exchange's REST and hubs (may carry a path, e.g. https://host:8443/trading); the ingesting roles need it unless SANDBOX. */
  @IsOptional()
  @Url(['http', 'https'])
  UPSTREAM_BASE_URL?: string = undefined;

  /** Runs the built-in sandbox exchange in-process and ingests from it: a trial on simulated prices. */
  @Flag()
  SANDBOX = false;

  /** Root of the login call; defaults to the origin of UPSTREAM_BASE_URL. */
  @IsOptional()
  @Url(['http', 'https'])
  UPSTREAM_AUTH_URL?: string = undefined;

  /** Root of the websocket gateway; defaults to the origin of UPSTREAM_BASE_URL with a ws scheme. */
  @IsOptional()
  @Url(['ws', 'wss', 'http', 'https'])
  UPSTREAM_WS_URL?: string = undefined;

  /** Login of the gateway user; without it the trade feed is not available. */
  @IsOptional()
  @Text()
  UPSTREAM_EMAIL?: string = undefined;

  /** Password of the gateway user. */
  @IsOptional()
  @Text()
  UPSTREAM_PASSWORD?: string = undefined;

  /** A file holding UPSTREAM_EMAIL (a mounted secret), instead of the variable. */
  @IsOptional()
  @FilePath()
  UPSTREAM_EMAIL_FILE?: string = undefined;

  /** A file holding UPSTREAM_PASSWORD (a mounted secret), instead of the variable. */
  @IsOptional()
  @FilePath()
  UPSTREAM_PASSWORD_FILE?: string = undefined;

  /** Where order books come from: the SignalR hub's `Book` stream, or the gateway's Level 2 feed. */
  @OneOf(BOOK_SOURCES)
  BOOK_SOURCE: BookSource = 'hub';

  // Ingest: the replicas that share the instruments.

  /** This process's name among the ingest replicas (lease owner); unset: host name and process id. */
  @IsOptional()
  @Identifier(64, '_.:-')
  INSTANCE_ID?: string = undefined;

  // Charts: the closed 1-minute bars behind the candles of every resolution.

  /**
   * Days of closed 1-minute bars the archive keeps after the UTC day they belong to ends, for chart
   * history beyond the last 24 hours; 0 keeps none past the day, so charts show only the last 24 hours.
   */
  @Integer({ min: 0, max: 3_650 })
  CHART_HISTORY_DAYS = 365;

  // Recordings: what the exchange sent and the gateway published, for replay and inquiry.

  /** A directory the ingest records into (compressed files of ten minutes, see docs/recordings.md); unset: no recording. */
  @IsOptional()
  @FilePath()
  RECORD_DIR?: string = undefined;

  /** Hours a recording file is kept after it closes; older ones are deleted. */
  @Integer({ min: 1, max: 87_600 })
  RECORD_RETENTION_HOURS = 168;

  /** The most the recordings in RECORD_DIR may take, in megabytes; the oldest files go first. */
  @Integer({ min: 1, max: 100_000_000 })
  RECORD_MAX_MB = 10_240;

  // Data files.

  /** JSON file with asset names and withdraw/deposit data (see README). */
  @IsOptional()
  @FilePath()
  ASSETS_FILE?: string = undefined;
}

/** Whether state is kept in Redis: at `REDIS_URL`, or at the primary the Sentinels name. */
export function usesRedis(config: Pick<AppConfig, 'REDIS_URL' | 'REDIS_SENTINELS'>): boolean {
  return config.REDIS_URL !== undefined || config.REDIS_SENTINELS !== undefined;
}

/** Keys whose values never appear in messages. */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  'UPSTREAM_PASSWORD',
  'REDIS_URL',
  'REDIS_SENTINEL_PASSWORD',
]);

/** Keys that may also be read from a file named by `<key>_FILE`, as Kubernetes mounts secrets. */
export const FILE_KEYS = [
  'UPSTREAM_EMAIL',
  'UPSTREAM_PASSWORD',
  'REDIS_URL',
  'REDIS_SENTINEL_PASSWORD',
] as const;
