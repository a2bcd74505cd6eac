import { ChaosFaultKind } from './fault-schedule';
import { ChaosResult, runChaos } from './run-chaos';

/**
 * The two faults that only this stack injects: the primary killed while the books move fast (a
 * failover under load), and the primary paused past the command timeout (the owners stall on it
 * while the Sentinels may already name another). Every fault of a replicated Redis, and a process
 * kill, come in `npm run chaos -- --only sentinel`; test/sentinel covers a forced failover.
 */
const KINDS: readonly ChaosFaultKind[] = ['primary-kill-in-burst', 'primary-pause'];

const CONVERGE_BOUND_MS = 30_000;

/**
 * The chaos run, short, on a primary with two replicas behind three Sentinels: three ingest and two
 * API processes of the real build while aggregators poll the API, and the faults above from a fixed
 * seed. After each the API serves exactly the exchange's books and trades within the bound; no
 * trade is lost, doubled or withdrawn, no request fails (the API processes are never down), and no
 * lease is taken from an owner while it still runs on the primary the Sentinels name.
 */
describe('chaos, short, on Redis Sentinel', () => {
  let result: ChaosResult;

  beforeAll(async () => {
    result = await runChaos({
      mode: 'multi',
      redis: 'sentinel',
      seed: 20261127,
      durationMs: 150_000,
      maxFaults: KINDS.length,
      flowRate: 10,
      convergeTimeoutMs: CONVERGE_BOUND_MS,
      kinds: KINDS,
    });
  }, 300_000);

  it('injects every fault of the list once', () => {
    expect(result.faults.map((fault) => fault.kind).sort()).toEqual([...KINDS].sort());
  });

  it('converges after each fault within the bound', () => {
    const late = result.faults.filter((fault) => !fault.converged || fault.convergeMs > CONVERGE_BOUND_MS);
    expect(late).toEqual([]);
    expect(result.finalConvergence).toMatchObject({ converged: true });
  });

  it('fails the primary over when it is killed', () => {
    const killed = result.faults.find((fault) => fault.kind === 'primary-kill-in-burst');
    expect(killed?.primary?.to).not.toBe(killed?.primary?.from);
  });

  it('loses, doubles or withdraws no trade, and never serves a crossed book or a trade the exchange did not make', () => {
    expect(result.lostTrades).toEqual([]);
    expect(result.doubledTrades).toEqual([]);
    expect(result.vanishedTrades).toEqual([]);
    expect(result.violations).toEqual([]);
    expect(result.checkerRounds).toBeGreaterThan(10);
  });

  it('answers every request through every Redis fault', () => {
    expect(result.load.examples).toEqual([]);
    expect(result.load.failed).toBe(0);
    expect(result.load.served).toBeGreaterThan(200);
  });

  it('never lets a lease be taken while it still runs, nor a fencing token go back', () => {
    expect(result.owners.notableChanges.filter((change) => change.cause === 'unexplained')).toEqual([]);
    expect(result.owners.tokenRegressions).toEqual([]);
    // Sampled all along: a few times a second, through several seconds of each fault.
    expect(result.owners.samples).toBeGreaterThan(10 * KINDS.length);
  });
});
