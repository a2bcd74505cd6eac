import { ChaosFaultKind } from './fault-schedule';
import { ChaosOptions } from './run-chaos';

/**
 * A long run with a name, for `npm run chaos -- --only <name>`: a chaos run, or a suite whose short
 * version the test suite runs and whose long one the environment given here switches on.
 */
export type ChaosScenario =
  | { readonly description: string; readonly options: Omit<ChaosOptions, 'log'> }
  | { readonly description: string; readonly suite: string; readonly env: Readonly<Record<string, string>> };

const CONVERGE_BOUND_MS = 30_000;

/** Each kind of failure of one process on one Redis once, in the order the seed gives. */
const SINGLE_KINDS: readonly ChaosFaultKind[] = [
  'drop-connections',
  'skip-version',
  'silence',
  'rest-503',
  'expire-sessions',
  'burst',
  'redis-restart',
  'ingest-kill',
];

/** Every fault of a replicated Redis once, an ingest process killed, and two of the sandbox's. */
const SENTINEL_KINDS: readonly ChaosFaultKind[] = [
  'failover',
  'primary-kill',
  'primary-kill-in-burst',
  'primary-pause',
  'primary-sleep',
  'ingest-kill',
  'drop-connections',
  'skip-version',
];

/**
 * The long versions of suites: the chaos suites keep the faults only a chaos run can inject, and
 * stream-replicas a few of the sandbox's; these run every kind of their list.
 */
export const CHAOS_SCENARIOS = {
  single: {
    description: 'one process of the real build on one Redis, eight kinds of fault once each',
    options: {
      mode: 'single',
      seed: 20261122,
      durationMs: 120_000,
      maxFaults: SINGLE_KINDS.length,
      flowRate: 10,
      convergeTimeoutMs: CONVERGE_BOUND_MS,
      kinds: SINGLE_KINDS,
    },
  },
  sentinel: {
    description:
      'three ingest and two API processes on a primary, two replicas and three Sentinels, ' +
      'every fault of a replicated Redis once',
    options: {
      mode: 'multi',
      redis: 'sentinel',
      seed: 20261127,
      durationMs: 150_000,
      maxFaults: SENTINEL_KINDS.length,
      flowRate: 10,
      convergeTimeoutMs: CONVERGE_BOUND_MS,
      kinds: SENTINEL_KINDS,
    },
  },
  'stream-replicas': {
    description: 'stream readers on two API replicas through every fault of the sandbox',
    suite: 'test/scale/stream-replicas.e2e-spec.ts',
    env: { CHAOS_EVERY_FAULT: '1' },
  },
} satisfies Record<string, ChaosScenario>;

export type ChaosScenarioName = keyof typeof CHAOS_SCENARIOS;

export function isChaosScenario(name: string): name is ChaosScenarioName {
  return Object.hasOwn(CHAOS_SCENARIOS, name);
}
