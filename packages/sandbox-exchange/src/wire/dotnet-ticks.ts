const TICKS_PER_MILLISECOND = 10_000n;
const TICKS_PER_DAY = 86_400_000n * TICKS_PER_MILLISECOND;
/** 719,162 days lie between 0001-01-01 and 1970-01-01 in the proleptic Gregorian calendar. */
const TICKS_AT_UNIX_EPOCH = 719_162n * TICKS_PER_DAY;

/**
 * .NET ticks (100 ns since 0001-01-01T00:00:00Z) of a Unix-millisecond instant, the exchange's
 * `serverTime`. Beyond 2^53, hence a bigint.
 */
export function dotNetTicks(unixMs: number): bigint {
  if (!Number.isInteger(unixMs)) throw new RangeError(`${unixMs} is not a whole number of milliseconds`);
  return TICKS_AT_UNIX_EPOCH + BigInt(unixMs) * TICKS_PER_MILLISECOND;
}
