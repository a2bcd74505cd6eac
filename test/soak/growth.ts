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
  /** Committed size of V8's spaces: the young generation, where every object starts. */
  readonly newSpaceBytes: number;
  /** The old generation: objects that survived two young collections. */
  readonly oldSpaceBytes: number;
  readonly codeSpaceBytes: number;
  /** Objects too large for a page of their own space (old and young generation together). */
  readonly largeObjectBytes: number;
  /** RSS less the V8 heap's committed size: malloc's heaps, buffers, stacks, the binary. */
  readonly outsideHeapBytes: number;
  /** Resident part of the main thread's malloc arena (`[heap]`). */
  readonly mainArenaBytes: number;
  /** Resident pages of mapped files: the node binary and its libraries. */
  readonly rssFileBytes: number;
  readonly threads: number;
  readonly activeHandles: number;
  readonly activeResources: number;
  readonly redisUsedBytes: number;
  /** Redis' used memory less that of the stored trades, which grow with the 24-hour window. */
  readonly redisBesidesTradesBytes: number;
  /** Trades the API serves over every listed market: the data the memory holds grows with them. */
  readonly storedTrades: number;
  readonly requestsServed: number;
  /** CPU time of the gateway process so far, user and system. */
  readonly cpuSeconds: number;
  /** Time spent in garbage collection so far, every kind. */
  readonly gcSeconds: number;
  /** Full (mark-compact) collections so far. */
  readonly majorGcs: number;
  /** The machine's 1-minute load average: the soak shares it with whatever else runs. */
  readonly loadAverage: number;
}

export type SoakMeasure =
  | 'rssBytes'
  | 'heapUsedBytes'
  | 'heapTotalBytes'
  | 'externalBytes'
  | 'newSpaceBytes'
  | 'oldSpaceBytes'
  | 'codeSpaceBytes'
  | 'largeObjectBytes'
  | 'outsideHeapBytes'
  | 'mainArenaBytes'
  | 'rssFileBytes'
  | 'threads'
  | 'activeHandles'
  | 'activeResources'
  | 'redisUsedBytes'
  | 'redisBesidesTradesBytes';

export interface Growth {
  readonly measure: SoakMeasure;
  /** The floor (least sample) of the first window after warm-up. */
  readonly afterWarmUp: number;
  /** The floor of the last window. */
  readonly atEnd: number;
  /** (atEnd - afterWarmUp) / afterWarmUp, in percent. */
  readonly growthPercent: number;
  /** Least-squares slope of the windows' floors after warm-up, per hour, in percent of afterWarmUp. */
  readonly trendPercentPerHour: number;
}

/**
 * Memory is compared by its floor over a window, the least of its samples: what is left after the
 * garbage collector ran. A mean, or a single sample, would mostly measure when it last ran.
 */
export const WINDOW_MS = 120_000;

/** Slope of `y` over `x` by least squares; 0 with fewer than two points. */
export function slope(points: readonly (readonly [number, number])[]): number {
  if (points.length < 2) return 0;
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
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

/** The floor of `measure` in each window after the warm-up, as [window start, floor]. */
export function floors(
  samples: readonly SoakSample[],
  measure: SoakMeasure,
  warmUpMs: number,
): [number, number][] {
  const byWindow = new Map<number, number>();
  for (const sample of samples) {
    if (sample.elapsedMs < warmUpMs) continue;
    const window = warmUpMs + Math.floor((sample.elapsedMs - warmUpMs) / WINDOW_MS) * WINDOW_MS;
    byWindow.set(window, Math.min(byWindow.get(window) ?? Number.POSITIVE_INFINITY, sample[measure]));
  }
  const points = [...byWindow].sort(([a], [b]) => a - b);
  // A last window of a few samples would compare a floor of a few samples with one of many.
  const lastAt = samples[samples.length - 1]?.elapsedMs ?? 0;
  if (points.length > 2 && lastAt - points[points.length - 1][0] < WINDOW_MS / 2) points.pop();
  return points;
}

/** How much a measure's floor grew from the first window after warm-up to the last, and its trend. */
export function growthOf(samples: readonly SoakSample[], measure: SoakMeasure, warmUpMs: number): Growth {
  const points = floors(samples, measure, warmUpMs);
  if (points.length < 2) throw new Error('fewer than two windows after the warm-up');
  const afterWarmUp = points[0][1];
  const atEnd = points[points.length - 1][1];
  const percent = (value: number) => (afterWarmUp === 0 ? 0 : (value / afterWarmUp) * 100);
  return {
    measure,
    afterWarmUp,
    atEnd,
    growthPercent: percent(atEnd - afterWarmUp),
    trendPercentPerHour: percent(slope(points) * 3_600_000),
  };
}
