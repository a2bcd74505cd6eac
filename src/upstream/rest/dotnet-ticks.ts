/** .NET ticks (100 ns since 0001-01-01T00:00:00Z) at the Unix epoch. */
const UNIX_EPOCH_TICKS = 621_355_968_000_000_000n;
const TICKS_PER_MILLISECOND = 10_000n;
const DIGITS = /^\d+$/;

/**
 * Unix milliseconds of a .NET tick count given as its decimal text (the exchange's `serverTime`,
 * an 18-digit integer beyond 2^53, so it never passes through a float). A fraction of a millisecond
 * is dropped (rounded towards the past). Returns undefined for text that is not such a count or an
 * instant outside the range of a JavaScript Date.
 */
export function unixMsFromDotNetTicks(text: string): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const sinceEpoch = BigInt(text) - UNIX_EPOCH_TICKS;
  const remainder = ((sinceEpoch % TICKS_PER_MILLISECOND) + TICKS_PER_MILLISECOND) % TICKS_PER_MILLISECOND;
  const ms = Number((sinceEpoch - remainder) / TICKS_PER_MILLISECOND);
  return Math.abs(ms) <= 8.64e15 ? ms : undefined;
}
