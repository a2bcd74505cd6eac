/** .NET ticks (100 ns since 0001-01-01T00:00:00Z) at the Unix epoch. */
export const UNIX_EPOCH_TICKS = 621_355_968_000_000_000n;

export const TICKS_PER_MILLISECOND = 10_000n;

/**
 * The exchange's `serverTime`: .NET ticks of a Unix-millisecond instant. The result exceeds 2^53,
 * so it is a bigint and must be written to JSON without passing through a float.
 */
export function dotNetTicks(unixMs: number): bigint {
  if (!Number.isInteger(unixMs)) throw new RangeError(`${unixMs} is not a whole number of milliseconds`);
  return BigInt(unixMs) * TICKS_PER_MILLISECOND + UNIX_EPOCH_TICKS;
}

/** Unix milliseconds of .NET ticks, rounded down to the millisecond. */
export function unixMsFromDotNetTicks(ticks: bigint): number {
  const sinceEpoch = ticks - UNIX_EPOCH_TICKS;
  const remainder = ((sinceEpoch % TICKS_PER_MILLISECOND) + TICKS_PER_MILLISECOND) % TICKS_PER_MILLISECOND;
  return Number((sinceEpoch - remainder) / TICKS_PER_MILLISECOND);
}
