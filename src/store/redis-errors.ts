/**
 * Error events of every Redis connection of the process, by connection name, counted as they come
 * (ioredis emits one per failed connection attempt and per connection lost). Process-wide because
 * connections are created outside any one application; `/metrics` reads the tally.
 */
const errorCounts = new Map<string, number>();

export function countRedisError(connection: string): void {
  errorCounts.set(connection, (errorCounts.get(connection) ?? 0) + 1);
}

export function redisErrorCounts(): ReadonlyMap<string, number> {
  return errorCounts;
}
