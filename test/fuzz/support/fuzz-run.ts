import fc from 'fast-check';
import { ExactJson, parseExactJson } from '../../../src/upstream/exact-json';

/**
 * Every fuzz suite draws its cases from this seed, so that a run is reproducible; fast-check prints
 * the seed and the path of the failing case. `FUZZ_SEED=<n>` explores other cases.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261122);

export function fuzzParameters(numRuns: number): fc.Parameters<unknown> {
  return { seed: FUZZ_SEED, numRuns, endOnFailure: true };
}

/** Cases drawn from `arbitrary` with the fuzz seed; `offset` gives each use its own stream of cases. */
export function fuzzCases<T>(arbitrary: fc.Arbitrary<T>, numRuns: number, offset = 0): T[] {
  return fc.sample(arbitrary, { seed: FUZZ_SEED + offset, numRuns });
}

/**
 * Records unhandled rejections and uncaught exceptions while installed, so that a suite can assert
 * that none happened: a parser that throws from a callback or leaves a promise rejected unobserved
 * would bring a real process down.
 */
export class ProcessFailures {
  readonly seen: string[] = [];
  private readonly record = (kind: string) => (reason: unknown) =>
    this.seen.push(`${kind}: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  private readonly onRejection = this.record('unhandledRejection');
  private readonly onException = this.record('uncaughtException');

  install(): void {
    process.on('unhandledRejection', this.onRejection);
    process.on('uncaughtException', this.onException);
  }

  uninstall(): void {
    process.off('unhandledRejection', this.onRejection);
    process.off('uncaughtException', this.onException);
  }
}

/** The exact parse of `text`, or undefined where the parser refuses it. */
export function parsedOrUndefined(text: string): ExactJson | undefined {
  try {
    return parseExactJson(text);
  } catch {
    return undefined;
  }
}
