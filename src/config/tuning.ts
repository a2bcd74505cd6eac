/**
 * The service's tuning: intervals, timeouts and limits chosen once for every deployment, so not
 * settings an operator reads about. Each default carries its reason. Production always runs these
 * defaults; only code that starts the application (tests) may pass other values, never the
 * environment. Values tied to one module only, which no test changes, are constants beside it.
 */
export class Tuning {
  // HTTP server and readiness.

  /** Ten seconds is ample for a request's headers on any link, and short for a slowloris attack. */
  requestTimeoutMs = 10_000;
  /** Aggregators poll once a minute (CoinMarketCap, CoinGecko): data older than one poll is not ready. */
  staleAfterMs = 60_000;

  // Listing health (`/listing-health`).

  /** Aggregators show 24-hour trades (CoinMarketCap A4): a market silent for an hour is flagged long before. */
  listingStaleTradesMs = 3_600_000;
  /** CoinMarketCap polls each pair once a minute: a book not current within one poll is what it reads stale. */
  listingStaleBookMs = 60_000;
  /** Reading every moved book costs seconds of CPU at a thousand deep books: at most once per minute's poll. */
  listingHealthRefreshMs = 60_000;

  // The live stream at `/stream`.

  /** A client follows a few dozen markets; a hundred channels bound one connection's fan-out. */
  streamMaxSubscriptions = 100;
  /** A subscribe frame naming a hundred channels fits in 4 KiB; longer ones are not read. */
  streamMaxFrameBytes = 4_096;
  /** Below the 30 s idle timeouts of common load balancers and proxies. */
  streamHeartbeatMs = 5_000;
  /** Book updates or trades waiting per channel: a reader this far behind gets a snapshot instead. */
  streamMaxBacklog = 256;
  /** Enough for a desk behind one NAT address; a loop opening sockets stops here. */
  streamMaxConnectionsPerAddress = 20;
  /** Subscribe frames per second (bursts of as many): a client switching pages, not a scan. */
  streamSubscribeRate = 10;
  /** A socket behind for this long is not reading; closing it frees its buffers for the others. */
  streamMaxBehindMs = 30_000;

  // Redis.

  /** A command unanswered this long means a paused primary or a dead link, not a slow Redis. */
  redisCommandTimeoutMs = 5_000;

  // The upstream exchange.

  /** The exchange's hubs ping every 15 s; the clients match it. */
  upstreamKeepAliveMs = 15_000;
  /** Two missed 15 s pings of the hub: the connection is gone. */
  upstreamServerTimeoutMs = 30_000;
  /** A `Pong` takes milliseconds; ten seconds without one is a dead connection. */
  upstreamPongTimeoutMs = 10_000;
  /** Trades asked for with each trade subscription: a reconnect's gap at busy markets, the rest from history. */
  tradesSnapshotCount = 1_000;

  // Ingest.

  /** A replica that stops renewing loses its instruments after this long: a takeover in about ten seconds. */
  leaseTtlMs = 10_000;
  /** Each instrument is written at most this often: the fixed part of the lag, against store writes. */
  flushIntervalMs = 50;

  // Scheduled work, run once across the replicas.

  /** Each live book is checked against a REST snapshot once per aggregator poll (REST limits may stretch it). */
  bookVerifyIntervalMs = 60_000;
  /** Market metadata changes rarely: once a minute catches a new or halted market within one poll. */
  catalogRefreshMs = 60_000;
  /** How long a refresh waits for the frame gateway's instrument list before it publishes without it. */
  catalogGatewayWaitMs = 10_000;
  /** Without a trade feed, 24-hour statistics from candles, as fresh as one aggregator poll. */
  candleRefreshMs = 60_000;
  /** Trades older than 24 hours are dropped once a minute, a minute's worth each time. */
  tradeTrimIntervalMs = 60_000;
}

/** The defaults, with `overrides` of a test on top. */
export function tuning(overrides: Partial<Tuning> = {}): Tuning {
  return Object.assign(new Tuning(), overrides);
}
