/** One sample of the soak run. */
export interface SoakSample {
  /** Milliseconds since the run started. */
  readonly elapsedMs: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  /** The heap V8 has reserved, used or not: RSS follows it rather than what is used. */
  readonly heapTotalBytes: number;
  /** Memory of buffers and other objects outside the V8 heap. */
  readonly externalBytes: number;
  readonly activeHandles: number;
  readonly activeResources: number;
  readonly redisUsedBytes: number;
  /** Redis' used memory less that of the stored trades, which grow with the 24-hour window. */
  readonly redisBesidesTradesBytes: number;
  /** Trades the API serves over every listed market: the data the memory holds grows with them. */
  readonly storedTrades: number;
  readonly requestsServed: number;
}

export type SoakMeasure =
  | 'rssBytes'
  | 'heapUsedBytes'
  | 'heapTotalBytes'
  | 'externalBytes'
  | 'activeHandles'
  | 'activeResources'
  | 'redisUsedBytes'
  | 'redisBesidesTradesBytes';

export interface Growth {
  readonly measure: SoakMeasure;
  /** Mean of the samples in the first minute after warm-up. */
  readonly afterWarmUp: number;
  /** Mean of the samples in the last minute. */
  readonly atEnd: number;
  /** (atEnd - afterWarmUp) / afterWarmUp, in percent. */
  readonly growthPercent: number;
  /** Least-squares slope over every sample after warm-up, per hour, in percent of afterWarmUp. */
  readonly trendPercentPerHour: number;
}

const MINUTE_MS = 60_000;

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

/** Slope of `y` over `x` by least squares; 0 with fewer than two points. */
export function slope(points: readonly (readonly [number, number])[]): number {
  if (points.length < 2) return 0;
  const meanX = mean(points.map(([x]) => x));
  const meanY = mean(points.map(([, y]) => y));
  let numerator = 0;
  let denominator = 0;
  for (const [x, y] of points) {
    numerator += (x - meanX) * (y - meanY);
    denominator += (x - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

/**
 * How much a measure grew after warm-up: the last minute's mean against the first minute's after
 * warm-up (means, so that one garbage collection does not decide), and the trend over all of it.
 */
export function growthOf(samples: readonly SoakSample[], measure: SoakMeasure, warmUpMs: number): Growth {
  const steady = samples.filter((sample) => sample.elapsedMs >= warmUpMs);
  if (steady.length === 0) throw new Error('no sample after the warm-up');
  const first = steady.filter((sample) => sample.elapsedMs < steady[0].elapsedMs + MINUTE_MS);
  const lastAt = steady[steady.length - 1].elapsedMs;
  const last = steady.filter((sample) => sample.elapsedMs > lastAt - MINUTE_MS);
  const afterWarmUp = mean(first.map((sample) => sample[measure]));
  const atEnd = mean(last.map((sample) => sample[measure]));
  const perMs = slope(steady.map((sample) => [sample.elapsedMs, sample[measure]]));
  const percent = (value: number) => (afterWarmUp === 0 ? 0 : (value / afterWarmUp) * 100);
  return {
    measure,
    afterWarmUp,
    atEnd,
    growthPercent: percent(atEnd - afterWarmUp),
    trendPercentPerHour: percent(perMs * 3_600_000),
  };
}
