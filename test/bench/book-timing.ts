/** One way of doing the benchmark's work: `prepare` (not timed) builds fresh state, `run` does the work on it. */
export interface Contender<State> {
  readonly name: string;
  prepare(): State;
  run(state: State): void;
}

export interface RoundTimes {
  /** Milliseconds of each round, per contender name. */
  readonly times: ReadonlyMap<string, number[]>;
}

/**
 * Runs every contender once per round, the order rotating from round to round so that a change in
 * the machine's background load does not always hit the same one; one untimed warm-up run each first.
 */
export function timeRounds(contenders: readonly Contender<unknown>[], rounds: number): RoundTimes {
  const times = new Map<string, number[]>(contenders.map((contender) => [contender.name, []]));
  for (const contender of contenders) contender.run(contender.prepare());
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const contender = contenders[(round + i) % contenders.length];
      const state = contender.prepare();
      collectGarbage();
      const started = performance.now();
      contender.run(state);
      times.get(contender.name)!.push(performance.now() - started);
    }
  }
  return { times };
}

/** A full collection between timed runs when node runs with --expose-gc, so that one run's garbage is not the next one's cost. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The median of the rounds' ratios `a / b` of rates, i.e. `timeB / timeA`, with the lowest and highest. */
export function rateRatio(
  times: RoundTimes,
  a: string,
  b: string,
): { median: number; min: number; max: number } {
  const timesA = times.times.get(a)!;
  const timesB = times.times.get(b)!;
  const ratios = timesA.map((time, round) => timesB[round] / time);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

/** How long each of `count` calls of `step` took, in milliseconds. */
export function callTimes(count: number, step: (index: number) => void): number[] {
  const times = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    step(i);
    times[i] = performance.now() - started;
  }
  return times;
}

/** The longest, the 99.9th percentile, and how many were over `limit`, of call times in milliseconds. */
export interface BlockStats {
  readonly max: number;
  readonly p999: number;
  readonly over: number;
}

export function blockStats(times: readonly number[], limit: number): BlockStats {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    max: sorted[sorted.length - 1] ?? 0,
    p999: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.999))] ?? 0,
    over: sorted.filter((time) => time > limit).length,
  };
}

export function formatRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k`;
  return perSecond.toFixed(0);
}
