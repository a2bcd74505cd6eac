/** .NET ticks (100 ns since 0001-01-01T00:00:00Z) at the Unix epoch. */
export const UNIX_EPOCH_TICKS = 621_355_968_000_000_000n;

const TICKS_PER_MILLISECOND = 10_000n;
const DIGITS = /^\d+$/;
const MAX_DATE_MS = 8.64e15;

/**
 * The exchange's `serverTime` (and gateway `TradeTime`): .NET ticks of a Unix-millisecond instant.
 * The result exceeds 2^53, so it is a bigint and must be written to JSON without passing through a float.
 */
export function dotNetTicks(unixMs: number): bigint {
  if (!Number.isInteger(unixMs)) throw new RangeError(`${unixMs} is not a whole number of milliseconds`);
  return BigInt(unixMs) * TICKS_PER_MILLISECOND + UNIX_EPOCH_TICKS;
}

/**
 * Unix milliseconds of a .NET tick count, given as a bigint or as its decimal text (so that an
 * 18-digit count never passes through a float), rounded towards the past. Undefined for text that
 * is no such count, or an instant outside the range of a JavaScript Date.
 */
export function unixMsFromDotNetTicks(ticks: bigint | string): number | undefined {
  if (typeof ticks === 'string' && !DIGITS.test(ticks)) return undefined;
  const sinceEpoch = BigInt(ticks) - UNIX_EPOCH_TICKS;
  const remainder = ((sinceEpoch % TICKS_PER_MILLISECOND) + TICKS_PER_MILLISECOND) % TICKS_PER_MILLISECOND;
  const ms = Number((sinceEpoch - remainder) / TICKS_PER_MILLISECOND);
  return Math.abs(ms) <= MAX_DATE_MS ? ms : undefined;
}
