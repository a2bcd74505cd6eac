import { waitFor } from '../support/fault-run';
import { expectConverges, setFault } from '../support/truth';
import { LEASE_TTL_MS, ScaleStack } from './support/scale-stack';

/** Trades a subscription asks for: fewer than each market's history, which must then be paged. */
const SNAPSHOT_COUNT = 5;

/**
 * Two ingest replicas on one Redis; one is killed while the exchange's trade history cannot be read.
 * The survivor takes its instruments over and, having waited for the history in vain, writes them
 * whole: the day of trades the store held must survive that write, and the history fills in once
 * it can be read again.
 */
describe('an instrument taken over while the trade history is down', () => {
  let stack: ScaleStack;
  let listed: string[];

  beforeAll(async () => {
    stack = await ScaleStack.start({
      ingest: 2,
      sandbox: { SANDBOX_FLOW_RATE: '2', SANDBOX_HISTORY_HOURS: '2' },
      ingestTuning: { tradesSnapshotCount: SNAPSHOT_COUNT },
    });
    listed = await stack.untilOwned();
    await expectConverges(stack.sandbox, stack.reader, listed, 30_000);
  }, 120_000);
  afterAll(() => stack?.close(), 30_000);

  it("keeps the stored trades through the new owner's first write, then converges", async () => {
    const [victim, survivor] = stack.ingest;
    const leases = await stack.view.leases(listed);
    const orphans = listed.filter((instrument) => leases.get(instrument)?.owner === victim.name);
    // Those whose history a subscription's snapshot does not cover (a market may have no trades).
    const storedIds = new Map<string, string[]>();
    for (const instrument of orphans) {
      const ids = (await stack.reader.readTrades(instrument)).map((trade) => trade.id);
      if (ids.length > SNAPSHOT_COUNT * 2) storedIds.set(instrument, ids);
    }
    expect(storedIds.size).toBeGreaterThan(0);

    await setFault(stack.sandbox, 'trade-history-down', true);
    const killedAt = Date.now();
    victim.signal('SIGKILL');
    // Written by the survivor: its first write comes once its wait for the history ran out.
    await waitFor(
      async () => {
        const owners = await stack.view.leases(orphans);
        const heads = await stack.reader.readHeads(orphans);
        return orphans.every(
          (instrument) =>
            owners.get(instrument)?.owner === survivor.name &&
            (heads.get(instrument)?.confirmedAt ?? 0) > killedAt,
        );
      },
      'orphans written by the survivor',
      LEASE_TTL_MS + 20_000,
      100,
    );

    for (const instrument of storedIds.keys()) {
      const held = new Set((await stack.reader.readTrades(instrument)).map((trade) => trade.id));
      expect(storedIds.get(instrument)!.filter((id) => !held.has(id))).toEqual([]);
    }

    await setFault(stack.sandbox, 'trade-history-down', false);
    await expectConverges(stack.sandbox, stack.reader, listed, 30_000);
  }, 90_000);
});
