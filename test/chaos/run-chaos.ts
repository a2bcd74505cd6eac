import { LISTED } from '../support/fault-cases';
import { sleep } from '../support/fault-run';
import { setFault, setFlow } from '../support/truth';
import { ApiLoad, LoadCounts, untilServing } from './api-load';
import { connectToPrimary, namedPrimary, RedisTopology } from './chaos-redis';
import { ChaosMode, ChaosStack } from './chaos-stack';
import { ChaosFaultKind, faultKindsOf, faultSchedule, isPulse, ScheduledFault } from './fault-schedule';
import { LeaseOwnerWatch, OwnerFigures } from './lease-owner-watch';
import { injectSentinelFault, isSentinelFault, PrimaryChange } from './sentinel-faults';
import { ContinuousChecker, untilConverged, Violation } from './truth-checker';

export interface ChaosOptions {
  readonly mode: ChaosMode;
  /** One Redis server (default), or a primary with two replicas behind three Sentinels. */
  readonly redis?: RedisTopology;
  /** Faults are injected until this much time has passed (the last one still converges). */
  readonly durationMs: number;
  readonly seed: number;
  /** Synthetic orders per second per market while faults are injected. */
  readonly flowRate: number;
  /** How long a convergence may take before it counts as failed. */
  readonly convergeTimeoutMs: number;
  /** Stops after this many faults, even before the duration is over. */
  readonly maxFaults?: number;
  /** The kinds drawn from (default: every one of the Redis topology). */
  readonly kinds?: readonly ChaosFaultKind[];
  /** Progress lines, one per fault. */
  readonly log?: (line: string) => void;
}

export interface InjectedFault {
  readonly kind: ChaosFaultKind;
  readonly params: Record<string, unknown>;
  readonly holdMs: number;
  /** Which process was killed (ingest-kill). */
  readonly victim?: string;
  /** The primary's port before and after a Redis fault on Sentinels. */
  readonly primary?: PrimaryChange;
  readonly converged: boolean;
  /** From the end of the fault (switched off, or the process back) until the API equals the truth. */
  readonly convergeMs: number;
  readonly detail: string;
}

export interface ChaosResult {
  readonly mode: ChaosMode;
  readonly redis: RedisTopology;
  readonly seed: number;
  readonly flowRate: number;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly instruments: readonly string[];
  readonly apiProcesses: number;
  readonly ingestProcesses: number;
  readonly initialConvergeMs: number;
  readonly faults: readonly InjectedFault[];
  readonly load: LoadCounts;
  /** Who held each instrument's lease through the run, and every change of hands by cause. */
  readonly owners: OwnerFigures;
  readonly checkerRounds: number;
  readonly violations: readonly Violation[];
  /** Trades (`instrument:id`) served twice at any moment of the run. */
  readonly doubledTrades: readonly string[];
  /** Trades served once and missing from a later answer of the same process, while in the window. */
  readonly vanishedTrades: readonly string[];
  /** Trades of the truth the API still did not serve at the end of the run. */
  readonly lostTrades: readonly string[];
  readonly finalConvergence: { readonly converged: boolean; readonly ms: number; readonly detail: string };
  /** The last error lines of each gateway process (killed ones included). */
  readonly processErrors: Readonly<Record<string, readonly string[]>>;
}

/** The paths an aggregator polls, over every listed market. */
export function loadPaths(instruments: readonly string[]): string[] {
  return [
    '/summary',
    '/ticker',
    '/asset',
    '/cmc/summary',
    '/coingecko/tickers',
    ...instruments.flatMap((instrument) => [
      `/orderbook/${instrument}`,
      `/orderbook/${instrument}?depth=20`,
      `/trades/${instrument}`,
    ]),
  ];
}

/**
 * The chaos run: the gateway's processes ingest from the sandbox while aggregators poll the API,
 * and faults are injected one after another from a seeded schedule. After each, the market is held
 * still and the time until every API process serves exactly the exchange's books and trades is
 * measured; meanwhile a checker looks for what can never be right (doubled or invented trades,
 * crossed books), and every failed request is counted.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => undefined);
  const startedAt = new Date();
  const instruments = LISTED;
  const topology = options.redis ?? 'standalone';
  const stack = await ChaosStack.start(options.mode, options.flowRate, {}, topology);
  let context = 'start';
  let outage = false;
  let outageEpoch = 0;
  const urls = () => stack.apiUrls();
  const load = new ApiLoad(
    {
      urls,
      inOutage: () => outage,
      outageEpoch: () => outageEpoch,
      context: () => context,
    },
    loadPaths(instruments),
  );
  const checker = new ContinuousChecker(stack.sandbox, instruments, urls, () => context);
  const owners = new LeaseOwnerWatch(
    connectToPrimary(stack.redisNodes, 500),
    instruments,
    () => context,
    namedPrimary(stack.redisNodes, 500),
  );
  const faults: InjectedFault[] = [];
  try {
    await setFlow(stack.sandbox, 0);
    const initial = await untilConverged(stack.sandbox, instruments, urls, 90_000);
    if (!initial.converged) throw new Error(`the API never served the truth at start: ${initial.detail}`);
    log(`converged at start in ${initial.ms} ms; faults for ${Math.round(options.durationMs / 1000)} s`);
    load.start();
    checker.start();
    owners.start();
    await setFlow(stack.sandbox, options.flowRate);
    context = 'none';
    await sleep(1_000);

    const schedule = faultSchedule(options.seed, options.kinds ?? faultKindsOf(topology));
    const deadline = Date.now() + options.durationMs;
    while (Date.now() < deadline && faults.length < (options.maxFaults ?? Number.POSITIVE_INFINITY)) {
      const fault = schedule.next().value as ScheduledFault;
      // One fault at a time: a node restarted after the previous kill must be a replica in sync again.
      if (stack.redisNodes.topology === 'sentinel') await stack.redisNodes.set.untilSettled();
      context = fault.kind;
      const { victim, primary } = await inject(stack, fault, {
        down: () => {
          outage = true;
          outageEpoch += 1;
        },
        up: () => {
          outage = false;
        },
        membershipChanged: () => owners.membershipChanged(),
        dataLost: () => owners.dataLost(),
      });
      await setFlow(stack.sandbox, 0);
      context = `${fault.kind} (converging)`;
      const convergence = await untilConverged(stack.sandbox, instruments, urls, options.convergeTimeoutMs);
      faults.push({
        kind: fault.kind,
        params: fault.params,
        holdMs: fault.holdMs,
        ...(victim ? { victim } : {}),
        ...(primary ? { primary } : {}),
        converged: convergence.converged,
        convergeMs: convergence.ms,
        detail: convergence.detail,
      });
      log(
        `${faults.length}. ${fault.kind} ${JSON.stringify(fault.params)}${victim ? ` ${victim}` : ''} held ${fault.holdMs} ms: ` +
          (convergence.converged
            ? `converged in ${convergence.ms} ms`
            : `NOT converged in ${convergence.ms} ms: ${convergence.detail}`),
      );
      context = 'none';
      await setFlow(stack.sandbox, options.flowRate);
      await sleep(fault.pauseMs);
    }
    context = 'end';
    const checked = await checker.stop();
    const counts = await load.stop();
    const ownerFigures = await owners.stop();
    await setFlow(stack.sandbox, 0);
    const final = await untilConverged(stack.sandbox, instruments, urls, options.convergeTimeoutMs);
    return {
      mode: options.mode,
      redis: topology,
      seed: options.seed,
      flowRate: options.flowRate,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      instruments,
      apiProcesses: stack.api.length,
      ingestProcesses: stack.ingest.length,
      initialConvergeMs: initial.ms,
      faults,
      load: counts,
      owners: ownerFigures,
      checkerRounds: checked.rounds,
      violations: checked.violations,
      doubledTrades: [...new Set([...checked.doubled, ...final.doubled])],
      vanishedTrades: checked.vanished,
      lostTrades: final.missing,
      finalConvergence: { converged: final.converged, ms: final.ms, detail: final.detail },
      processErrors: stack.errors(),
    };
  } finally {
    await checker.stop();
    await load.stop();
    await owners.stop();
    await stack.close();
  }
}

interface FaultHooks {
  /** The only API process goes down on purpose. */
  down(): void;
  up(): void;
  /** An ingest process is killed or started again. */
  membershipChanged(): void;
  /** Redis is down and comes back empty: every lease goes with its data. */
  dataLost(): void;
}

/** What a fault hit: the killed process, or the primary that a Redis fault on Sentinels hit. */
interface FaultTarget {
  readonly victim?: string;
  readonly primary?: PrimaryChange;
}

/** Switches a fault on, holds it while the market moves, and ends it. */
async function inject(stack: ChaosStack, fault: ScheduledFault, hooks: FaultHooks): Promise<FaultTarget> {
  const { sandbox } = stack;
  if (isSentinelFault(fault)) {
    if (stack.redisNodes.topology !== 'sentinel') throw new Error(`${fault.kind} needs --redis sentinel`);
    return { primary: await injectSentinelFault(stack.redisNodes.set, sandbox, fault) };
  }
  switch (fault.kind) {
    case 'redis-restart':
      await stack.redis.kill();
      hooks.dataLost();
      await sleep(fault.holdMs);
      await stack.redis.restart();
      return {};
    case 'ingest-kill': {
      const slot = stack.ingest[fault.target % stack.ingest.length];
      // With one process, the API goes down with it: its refusals are expected, not failures.
      const alone = slot.serves && stack.api.length === 1;
      if (alone) hooks.down();
      hooks.membershipChanged();
      await slot.kill();
      await sleep(fault.holdMs);
      try {
        await slot.start();
        hooks.membershipChanged();
        if (alone) await untilServing(slot.url!, loadPaths(LISTED), 60_000);
      } finally {
        if (alone) hooks.up();
      }
      return { victim: slot.name };
    }
    case 'rest-429':
    case 'rest-503':
      // REST failing alone changes nothing while the feeds are whole: deltas are withheld meanwhile,
      // so that the books need REST to recover while it fails.
      await setFault(sandbox, fault.kind, true, fault.params);
      await setFault(sandbox, 'skip-version', true, { count: fault.withheldDeltas });
      await sleep(fault.holdMs);
      await setFault(sandbox, 'skip-version', false);
      await setFault(sandbox, fault.kind, false);
      return {};
    default:
      await setFault(sandbox, fault.kind, true, fault.params);
      await sleep(fault.holdMs);
      if (!isPulse(fault.kind)) await setFault(sandbox, fault.kind, false);
      return {};
  }
}
