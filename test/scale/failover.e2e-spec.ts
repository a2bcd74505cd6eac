import { sleep, waitFor } from '../support/fault-run';
import { expectConverges, setFlow } from '../support/truth';
import { ApiPoller, untilAllAnswer } from './support/api-poller';
import { GatewayProcess } from './support/gateway-process';
import { LEASE_TTL_MS, ScaleStack } from './support/scale-stack';

const FLOW = 5;

/**
 * Three ingest replicas and two API replicas, each a process of the real build, on one Redis against
 * the sandbox: the instruments are shared out with one owner each; when an ingest replica dies, the
 * others take its instruments over within the lease time and a resync, the store equals the
 * exchange again, and the API replicas answer every request meanwhile.
 */
describe('three ingest and two API replicas on one Redis', () => {
  let stack: ScaleStack;
  let listed: string[];

  beforeAll(async () => {
    stack = await ScaleStack.start({ ingest: 3, api: 2, sandbox: { SANDBOX_FLOW_RATE: String(FLOW) } });
    listed = await stack.untilOwned();
    await expectConverges(stack.sandbox, stack.reader, listed, 20_000);
    await setFlow(stack.sandbox, FLOW);
  }, 120_000);
  afterAll(() => stack?.close(), 30_000);

  it('gives every listed instrument exactly one owner, a fair share each', async () => {
    expect(listed).toHaveLength(9);
    const check = await stack.view.exactlyOneLiveOwner(listed, stack.ingest);
    expect(check).toEqual({ ok: true, detail: '' });
    const owners = await stack.view.ownersOf(listed);
    expect([...owners.keys()].sort()).toEqual(['ingest-1', 'ingest-2', 'ingest-3']);
    expect([...owners.values()].map((instruments) => instruments.length)).toEqual([3, 3, 3]);
  });

  it('hands the instruments of a killed replica to the others within the lease time and a resync, while the API answers every request', async () => {
    const paths = ['/summary', ...listed.map((instrument) => `/orderbook/${instrument}`)];
    await untilAllAnswer(stack.api, paths, 15_000);
    const poller = new ApiPoller(stack.api, paths);
    poller.start();
    await sleep(1_000);

    const victim: GatewayProcess = stack.ingest[0];
    const survivors = stack.ingest.slice(1);
    const before = await stack.view.leases(listed);
    const orphans = listed.filter((instrument) => before.get(instrument)?.owner === victim.name);
    const killedAt = Date.now();
    victim.signal('SIGKILL');

    await waitFor(
      async () => {
        if (!(await stack.view.exactlyOneLiveOwner(listed, survivors)).ok) return false;
        const heads = await stack.reader.readHeads(orphans);
        return orphans.every((instrument) => {
          const head = heads.get(instrument);
          return head?.syncState === 'live' && head.confirmedAt > killedAt;
        });
      },
      'orphans live again on the survivors',
      LEASE_TTL_MS + 12_000,
      100,
    );
    const takeoverMs = Date.now() - killedAt;
    const answeredAtTakeover = poller.answered();
    if (process.env.SCALE_REPORT)
      process.stdout.write(
        `failover: ${orphans.length} instruments live again ${takeoverMs} ms after the kill\n`,
      );
    // The lease time, a round of the survivors (a third of it), and a resync, with room for a busy machine.
    expect(takeoverMs).toBeLessThan(LEASE_TTL_MS + LEASE_TTL_MS / 3 + 4_000);

    const after = await stack.view.leases(listed);
    for (const instrument of orphans) {
      expect(survivors.map((replica) => replica.name)).toContain(after.get(instrument)!.owner);
      expect(after.get(instrument)!.token).toBeGreaterThan(before.get(instrument)!.token);
    }
    // Instruments of the survivors stayed where they were.
    for (const instrument of listed.filter((name) => !orphans.includes(name)))
      expect(after.get(instrument)).toEqual(before.get(instrument));

    await expectConverges(stack.sandbox, stack.reader, listed, 15_000);
    // Every API replica still answers after the takeover: a whole round of the paths more each.
    await waitFor(
      () =>
        stack.api.every(
          ({ name }) =>
            (poller.answered().get(name) ?? 0) >= (answeredAtTakeover.get(name) ?? 0) + paths.length,
        ),
      'a round of answers from every API replica after the takeover',
      30_000,
    );
    const result = await poller.stop();
    expect(result.failures).toEqual([]);
  }, 90_000);
});
