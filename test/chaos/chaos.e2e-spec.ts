import { ChaosFaultKind } from './fault-schedule';
import { ChaosResult, runChaos } from './run-chaos';

/**
 * The faults only a chaos run injects: Redis restarted empty, and the only process killed. The
 * sandbox's faults each have a suite of their own (test/ingest); all of them together, in one run of
 * the real build, come in `npm run chaos -- --only single`.
 */
const KINDS: readonly ChaosFaultKind[] = ['redis-restart', 'ingest-kill'];

const CONVERGE_BOUND_MS = 30_000;

/**
 * The chaos run, short: one gateway process of the real build (ROLE=all, on Redis) ingests from
 * the sandbox while aggregators poll it, and the faults above come one after another in the order
 * of a fixed seed. After each the API serves exactly the exchange's books and trades again within
 * the bound; no trade is ever lost, doubled or served and then missing, and no request fails but
 * while the only process is deliberately down.
 */
describe('chaos, short', () => {
  let result: ChaosResult;

  beforeAll(async () => {
    result = await runChaos({
      mode: 'single',
      seed: 20261122,
      durationMs: 120_000,
      maxFaults: KINDS.length,
      flowRate: 10,
      convergeTimeoutMs: CONVERGE_BOUND_MS,
      kinds: KINDS,
    });
  }, 240_000);

  it('injects every fault of the list once', () => {
    expect(result.faults.map((fault) => fault.kind).sort()).toEqual([...KINDS].sort());
  });

  it('converges after each fault within the bound', () => {
    const late = result.faults.filter((fault) => !fault.converged || fault.convergeMs > CONVERGE_BOUND_MS);
    expect(late).toEqual([]);
    expect(result.finalConvergence).toMatchObject({ converged: true });
  });

  it('loses, doubles or withdraws no trade, and never serves a crossed book or a trade the exchange did not make', () => {
    expect(result.lostTrades).toEqual([]);
    expect(result.doubledTrades).toEqual([]);
    expect(result.vanishedTrades).toEqual([]);
    expect(result.violations).toEqual([]);
    expect(result.checkerRounds).toBeGreaterThan(10);
  });

  it('answers every request but while its only process is deliberately down', () => {
    expect(result.load.examples).toEqual([]);
    expect(result.load.failed).toBe(0);
    expect(result.load.served).toBeGreaterThan(200);
  });
});
