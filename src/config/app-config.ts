import { IsOptional } from 'class-validator';
import { Role } from './role';
import {
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

/** A non-negative decimal in plain notation. */
const DECIMAL = /^\d+(\.\d+)?$/;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every setting of the service, read from the environment once at boot. Each doc comment is the
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

  /** A shutdown not finished this long after the signal is cut short: the process exits with status 1. */
  @Milliseconds({ min: 1_000, max: 600_000 })
  SHUTDOWN_TIMEOUT_MS = 25_000;

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

  /** A request whose headers (and body) have not all arrived this long after it began is answered 408 and cut off. */
  @Milliseconds({ min: 100 })
  REQUEST_TIMEOUT_MS = 10_000;

  /** `/health/ready` fails when the listed data was last heard of longer ago than this. */
  @Milliseconds({ min: 1_000 })
  STALE_AFTER_MS = 60_000;

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

  /** `wide_spread` above this spread, in percent of the mid. */
  @Format(DECIMAL, 'a decimal number such as 2 or 0.5')
  LISTING_MAX_SPREAD_PERCENT = '2';

  /** `thin_depth` when either side's ±2 % depth is worth less than this many US dollars. */
  @Format(DECIMAL, 'a decimal number such as 1000')
  LISTING_MIN_DEPTH_USD = '1000';

  /** `stale_trades` when a market's last trade is older than this. */
  @Milliseconds({ min: 1_000 })
  LISTING_STALE_TRADES_MS = 3_600_000;

  /** `stale_book` when a market's book was last known current longer ago than this. */
  @Milliseconds({ min: 1_000 })
  LISTING_STALE_BOOK_MS = 60_000;

  /** `volume_without_depth` when the 24-hour volume exceeds the ±2 % depth this many times. */
  @Format(DECIMAL, 'a decimal number such as 100')
  LISTING_VOLUME_DEPTH_RATIO = '100';

  /**
   * The books behind the figures are read again when asked for and older than this: a refresh reads
   * every book that moved, seconds of the API's CPU at a thousand deep books (BENCHMARKS.md).
   */
  @Milliseconds({ min: 100, max: 3_600_000 })
  LISTING_HEALTH_REFRESH_MS = 60_000;

  /**
   * Levels of full books (both sides) an API process keeps in memory for `/orderbook` and the
   * depths; beyond it the least recently asked-for books are read from the store again when asked.
   */
  @Integer({ min: 1_000 })
  BOOK_CACHE_MAX_LEVELS = 500_000;

  // The live stream at `/stream`, on the processes that serve the API.
  /** Channels one connection may follow at once; also the most one subscribe frame may name. */
  @Integer({ min: 1, max: 10_000 })
  STREAM_MAX_SUBSCRIPTIONS = 100;
  /** A client frame longer than this is answered with an error and not read. */
  @Integer({ min: 256, max: 1_048_576 })
  STREAM_MAX_FRAME_BYTES = 4_096;
  /** A connection sent nothing for this long gets a heartbeat. */
  @Milliseconds({ min: 100, max: 60_000 })
  STREAM_HEARTBEAT_MS = 5_000;
  /** Book updates or trades messages a connection may have waiting per channel; one more drops them. */
  @Integer({ min: 1, max: 100_000 })
  STREAM_MAX_BACKLOG = 256;
  /** Open connections one client address may hold; one more upgrade is refused with a 429. */
  @Integer({ min: 1, max: 100_000 })
  STREAM_MAX_CONNECTIONS_PER_ADDRESS = 20;
  /** Subscribe and unsubscribe frames a connection may send per second, in bursts of as many. */
  @Integer({ min: 1, max: 10_000 })
  STREAM_SUBSCRIBE_RATE = 10;
  /** A connection whose socket stays behind for this long is closed as too slow. */
  @Milliseconds({ min: 1_000, max: 600_000 })
  STREAM_MAX_BEHIND_MS = 30_000;

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

  /**
   * A store command without a reply after this long fails, and the connection is replaced: a primary
   * that is paused, or a link that went silent without closing, counts as an outage after this long.
   */
  @Milliseconds({ min: 100, max: 60_000 })
  REDIS_COMMAND_TIMEOUT_MS = 5_000;

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

  /** The hub client pings when it sent nothing for this long; the gateway client sends `Ping` this often. */
  @Milliseconds({ min: 50, max: 600_000 })
  UPSTREAM_KEEPALIVE_MS = 15_000;

  /** A hub connection that receives nothing for this long counts as lost and is replaced. */
  @Milliseconds({ min: 100, max: 600_000 })
  UPSTREAM_SERVER_TIMEOUT_MS = 30_000;

  /** A gateway `Ping` unanswered for this long costs the connection, which is replaced. */
  @Milliseconds({ min: 100, max: 600_000 })
  UPSTREAM_PONG_TIMEOUT_MS = 10_000;

  /**
   * While messages keep coming, an upstream websocket reads every this many milliseconds, all that
   * arrived at once (see `batchReads`): less ingest CPU under a burst, for at most this much more lag.
   * 0 reads every message as it arrives.
   */
  @Milliseconds({ min: 0, max: 50 })
  UPSTREAM_READ_BATCH_MS = 10;

  /** Trades asked for with every trade subscription, to bridge a reconnect; older ones come from trade history. */
  @Integer({ min: 1, max: 100_000 })
  TRADES_SNAPSHOT_COUNT = 1_000;

  // Ingest: the replicas that share the instruments, and how often they write.

  /** This process's name among the ingest replicas (lease owner); unset: host name and process id. */
  @IsOptional()
  @Identifier(64, '_.:-')
  INSTANCE_ID?: string = undefined;

  /** An ingest replica that stops renewing its lease on an instrument loses it after this long. */
  @Milliseconds({ min: 1_000, max: 600_000 })
  LEASE_TTL_MS = 10_000;

  /**
   * Each instrument's state is written to the store at most once per this interval: the largest
   * fixed part of the lag from upstream to the API, against one store write per interval.
   */
  @Milliseconds({ min: 10, max: 10_000 })
  FLUSH_INTERVAL_MS = 50;

  // Scheduled work, run once across the replicas.

  /** Each live book is checked against a REST snapshot about this often (the REST limits may stretch it). */
  @Milliseconds({ min: 1_000 })
  BOOK_VERIFY_INTERVAL_MS = 60_000;

  /** Market metadata (REST info, gateway instruments and products, assets file) is refreshed this often. */
  @Milliseconds({ min: 1_000 })
  CATALOG_REFRESH_MS = 60_000;

  /** Without a trade feed, 24-hour statistics are re-estimated from candles this often. */
  @Milliseconds({ min: 1_000 })
  CANDLE_REFRESH_MS = 60_000;

  /** Stored trades older than 24 hours are dropped this often, for every market (also those no replica writes). */
  @Milliseconds({ min: 1_000 })
  TRADE_TRIM_INTERVAL_MS = 60_000;

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
