import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { FAULT_NAMES, FaultName, FAULTS } from 'sandbox-exchange';

import { RedisTopology } from './chaos-redis';

/** Faults outside the sandbox: the store's server and the gateway's own processes. */
export type ProcessFault = 'redis-restart' | 'ingest-kill';

/** Faults of a Redis replicated behind Sentinels, in place of `redis-restart`. */
export type SentinelFault =
  'primary-kill' | 'primary-kill-in-burst' | 'failover' | 'primary-pause' | 'primary-sleep';

export type ChaosFaultKind = FaultName | ProcessFault | SentinelFault;

export const PROCESS_FAULTS: readonly ProcessFault[] = ['redis-restart', 'ingest-kill'];

export const SENTINEL_FAULTS: readonly SentinelFault[] = [
  'primary-kill',
  'primary-kill-in-burst',
  'failover',
  'primary-pause',
  'primary-sleep',
];

/**
 * Sandbox faults the schedule leaves out: `stop-matching` makes the exchange's own book crossed, which
 * the checker rightly counts as a failure of whoever serves it.
 */
const UNSCHEDULED: readonly FaultName[] = ['stop-matching'];

const SANDBOX_FAULTS = FAULT_NAMES.filter((name) => !UNSCHEDULED.includes(name));

/** Every kind the schedule draws from on one Redis: each switch of the sandbox's catalogue and the process faults. */
export const CHAOS_FAULT_KINDS: readonly ChaosFaultKind[] = [...SANDBOX_FAULTS, ...PROCESS_FAULTS];

/** Every kind the schedule draws from on Sentinels: the Redis faults are those of a replicated Redis. */
export const SENTINEL_CHAOS_FAULT_KINDS: readonly ChaosFaultKind[] = [
  ...SANDBOX_FAULTS,
  ...SENTINEL_FAULTS,
  'ingest-kill',
];

export function faultKindsOf(topology: RedisTopology): readonly ChaosFaultKind[] {
  return topology === 'sentinel' ? SENTINEL_CHAOS_FAULT_KINDS : CHAOS_FAULT_KINDS;
}

/** Markets that trade, so that halting or pausing one changes something. */
const OPEN_MARKETS = ['btc_usdt', 'eth_btc', 'eth_usdt', 'shib_usdt', 'pepe_eth', 'sol_eur', 'usdc_usdt'];

export interface ScheduledFault {
  readonly kind: ChaosFaultKind;
  /** Parameters of a sandbox fault (`count`, `instrument`, ...) or of the burst a primary is killed in. */
  readonly params: Record<string, unknown>;
  /**
   * How long the fault lasts while the market moves: on, down before the restart (for a primary,
   * once a replica took its place), paused, or after a forced failover.
   */
  readonly holdMs: number;
  /** Which ingest process to kill (an index into the live ones, modulo their number). */
  readonly target: number;
  /** For rest-429 and rest-503: book deltas withheld meanwhile, so that recovery needs REST. */
  readonly withheldDeltas: number;
  /** The market moves this long with no fault before the next one. */
  readonly pauseMs: number;
}

/** A seeded source of numbers: the same seed gives the same schedule. */
class SeededRandom {
  private readonly generator;

  constructor(seed: number) {
    this.generator = xoroshiro128plus(seed | 0);
  }

  fraction(): number {
    return uniformFloat64(this.generator);
  }

  between(low: number, high: number): number {
    return Math.round(low + (high - low) * this.fraction());
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.fraction() * items.length)];
  }

  shuffled<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let index = copy.length - 1; index > 0; index -= 1) {
      const other = Math.floor(this.fraction() * (index + 1));
      [copy[index], copy[other]] = [copy[other], copy[index]];
    }
    return copy;
  }
}

/**
 * An endless schedule of faults for one seed. Each round draws every kind once in a shuffled order,
 * so that a run of a few rounds meets every fault, in an order and with parameters no one chose.
 */
export function* faultSchedule(
  seed: number,
  kinds: readonly ChaosFaultKind[] = CHAOS_FAULT_KINDS,
): Generator<ScheduledFault> {
  const random = new SeededRandom(seed);
  for (;;) {
    for (const kind of random.shuffled(kinds)) {
      yield {
        kind,
        params: paramsOf(kind, random),
        holdMs: holdOf(kind, random),
        target: random.between(0, 1_000),
        withheldDeltas: random.between(1, 5),
        pauseMs: random.between(500, 2_500),
      };
    }
  }
}

function paramsOf(kind: ChaosFaultKind, random: SeededRandom): Record<string, unknown> {
  switch (kind) {
    case 'skip-version':
      // A huge count withholds every delta until it is switched off: only the REST check finds the gap.
      return { count: random.pick([1, 2, 5, 1_000_000]) };
    case 'malformed-frame':
      return { intervalMs: random.between(100, 500) };
    case 'rest-429':
    case 'rest-503':
      return { probability: random.pick([0.5, 1]) };
    case 'hub-close':
      return { allowReconnect: random.fraction() < 0.5 };
    case 'halt-market':
    case 'pause-market':
      return { instrument: random.pick(OPEN_MARKETS) };
    case 'burst':
    case 'primary-kill-in-burst':
      return { updatesPerSecond: random.pick([500, 1_500, 3_000]) };
    default:
      return {};
  }
}

function holdOf(kind: ChaosFaultKind, random: SeededRandom): number {
  switch (kind) {
    case 'silence':
      // Longer than the upstream timeouts of the run, so that the silence is noticed.
      return random.between(1_500, 3_000);
    case 'redis-restart':
      return random.between(300, 3_000);
    case 'ingest-kill':
      return random.between(200, 2_000);
    case 'primary-kill':
    case 'primary-kill-in-burst':
      // How long the killed primary stays down once a replica took its place.
      return random.between(300, 3_000);
    case 'primary-pause':
    case 'primary-sleep':
      // Longer than the gateway's command timeout on Sentinels (1 s), at times past the Sentinels' 1 s.
      return random.between(1_500, 4_000);
    case 'hub-close':
    case 'expire-sessions':
      return random.between(500, 1_500);
    default:
      return random.between(500, 3_000);
  }
}

/** True for faults that act once when switched on and need no switching off. */
export function isPulse(kind: ChaosFaultKind): boolean {
  return kind in FAULTS && FAULTS[kind as FaultName].kind === 'pulse';
}
