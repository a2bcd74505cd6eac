/**
 * Variables that earlier versions read and this one does not: tuning now built in (`Tuning` and
 * constants beside the code they tune). One still set is an error at start, not silently ignored,
 * so that nobody believes a value of theirs is in force.
 */
export const REMOVED_SETTINGS: readonly string[] = [
  'SHUTDOWN_TIMEOUT_MS',
  'REQUEST_TIMEOUT_MS',
  'STALE_AFTER_MS',
  'LISTING_MAX_SPREAD_PERCENT',
  'LISTING_MIN_DEPTH_USD',
  'LISTING_STALE_TRADES_MS',
  'LISTING_STALE_BOOK_MS',
  'LISTING_VOLUME_DEPTH_RATIO',
  'LISTING_HEALTH_REFRESH_MS',
  'BOOK_CACHE_MAX_LEVELS',
  'STREAM_MAX_SUBSCRIPTIONS',
  'STREAM_MAX_FRAME_BYTES',
  'STREAM_HEARTBEAT_MS',
  'STREAM_MAX_BACKLOG',
  'STREAM_MAX_CONNECTIONS_PER_ADDRESS',
  'STREAM_SUBSCRIBE_RATE',
  'STREAM_MAX_BEHIND_MS',
  'REDIS_COMMAND_TIMEOUT_MS',
  'UPSTREAM_KEEPALIVE_MS',
  'UPSTREAM_SERVER_TIMEOUT_MS',
  'UPSTREAM_PONG_TIMEOUT_MS',
  'UPSTREAM_READ_BATCH_MS',
  'TRADES_SNAPSHOT_COUNT',
  'LEASE_TTL_MS',
  'FLUSH_INTERVAL_MS',
  'BOOK_VERIFY_INTERVAL_MS',
  'CATALOG_REFRESH_MS',
  'CANDLE_REFRESH_MS',
  'TRADE_TRIM_INTERVAL_MS',
  // Chose between trade layouts that no released version wrote; the one layout left is built in.
  'REDIS_TRADE_LAYOUT',
];

/** One problem per removed variable that `env` still sets (empty values count as unset). */
export function removedSettingProblems(env: Readonly<Record<string, string | undefined>>): string[] {
  return REMOVED_SETTINGS.filter((key) => (env[key] ?? '').trim() !== '').map(
    (key) => `${key}: no longer a setting, its value is built in (docs/configuration.md); remove it`,
  );
}
