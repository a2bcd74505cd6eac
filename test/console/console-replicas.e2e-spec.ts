import Redis from 'ioredis';
import type { ConsoleSnapshot } from '../../src/api/console/console-snapshot';
import { StoreKeys } from '../../src/store/keys';
import { feedFrame } from '../support/feed-frames';
import { startTestStack, TestStack } from '../support/start-test-stack';

const REPLICA = 'replica-under-test';

describe('the console with Redis: owners from the leases', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ app: { INSTANCE_ID: REPLICA } });
  }, 30_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('names the ingest replica holding each market, the live members and this API replica', async () => {
    const snapshot = await feedFrame<ConsoleSnapshot>(
      `${stack.app.url}/console/feed`,
      (frame) => frame.markets.length > 0 && frame.markets.every((row) => row.owner === REPLICA),
      20_000,
    );
    expect(snapshot.store).toEqual({ reachable: true, kind: 'redis' });
    expect(snapshot.replicas.leased).toBe(true);
    expect(snapshot.replicas.ingest).toEqual([
      { id: REPLICA, expiresInMs: expect.any(Number), owns: snapshot.markets.length },
    ]);
    expect(snapshot.replicas.api).toEqual([{ id: REPLICA, role: 'all', self: true }]);
    expect(snapshot.upstream?.map((connection) => connection.name).sort()).toEqual(['gateway', 'hub']);
  });

  it('tells that another replica took a market over, and the market came back', async () => {
    const redis = new Redis(stack.redis!.url);
    try {
      // What a replica that took the lease over would leave in its key: its own token and name.
      await redis.set(new StoreKeys().instrument('btc_usdt').lease, '999999:replica-elsewhere', 'PX', 3_000);
      const taken = await feedFrame<ConsoleSnapshot>(
        `${stack.app.url}/console/feed`,
        (frame) => frame.events.some((event) => event.message.startsWith('BTC_USDT: taken over by')),
        10_000,
      );
      expect(taken.events.map((event) => event.message)).toContain(
        `BTC_USDT: taken over by replica-elsewhere from ${REPLICA}`,
      );
      // The lease runs out; this replica takes the market back.
      await feedFrame<ConsoleSnapshot>(
        `${stack.app.url}/console/feed`,
        (frame) => frame.markets.find((row) => row.market === 'BTC_USDT')?.owner === REPLICA,
        20_000,
      );
    } finally {
      redis.disconnect();
    }
  }, 40_000);
});
