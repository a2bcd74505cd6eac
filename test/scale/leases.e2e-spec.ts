import Redis from 'ioredis';
import { OwnershipListener } from '../../src/ingest/ownership/instrument-ownership';
import { LeaseOwnership } from '../../src/ingest/ownership/lease-ownership';
import {
  ACQUIRE_LEASE,
  acquireCall,
  HEARTBEAT,
  heartbeatCall,
  RELEASE_LEASE,
  releaseCall,
  RENEW_LEASE,
  renewCall,
} from '../../src/ingest/ownership/lease-scripts';
import { StoreKeys } from '../../src/store/keys';
import { RedisClient } from '../../src/store/redis-client';
import { createRedisClient } from '../../src/store/redis-connection';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { InstrumentWrite, WriteFence } from '../../src/store/state-store';
import { head } from '../../src/store/testing/state-store-contract';
import { sleep, waitFor } from '../support/fault-run';
import { startRedisCluster, TestRedisCluster } from '../support/redis-cluster';
import { startRedisServer, TestRedisServer } from '../support/redis-server';

describe('instrument leases in Redis', () => {
  let redis: TestRedisServer;
  let client: Redis;
  let prefix: string;
  let keys: StoreKeys;
  let testCount = 0;

  beforeAll(async () => {
    redis = await startRedisServer();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client.disconnect();
    await redis.stop();
  });
  beforeEach(() => {
    prefix = `lease-test-${++testCount}-${Date.now()}`;
    keys = new StoreKeys(prefix);
  });

  const run = async (script: typeof ACQUIRE_LEASE, call: ReturnType<typeof acquireCall>) =>
    (await script.runAll(client, [call]))[0];

  describe('scripts', () => {
    it('acquire takes only a free lease, with a token that grows across owners', async () => {
      // A lease long enough that no pause of a busy machine runs it out; then it is made to run out.
      const lease = keys.instrument('btc_usdt').lease;
      const first = Number(await run(ACQUIRE_LEASE, acquireCall(keys, 'btc_usdt', 'a', 60_000)));
      expect(first).toBeGreaterThan(0);
      expect(await run(ACQUIRE_LEASE, acquireCall(keys, 'btc_usdt', 'b', 60_000))).toBe(0);
      expect(await client.get(lease)).toBe(`${first}:a`);
      expect(await client.pttl(lease)).toBeGreaterThan(50_000);
      await client.pexpire(lease, 1);
      await waitFor(async () => (await client.exists(lease)) === 0, 'the lease run out');
      expect(await run(ACQUIRE_LEASE, acquireCall(keys, 'btc_usdt', 'b', 200))).toBeGreaterThan(first);
      expect(await run(ACQUIRE_LEASE, acquireCall(keys, 'eth_usdt', 'b', 200))).toBeGreaterThan(0);
    });

    it('mints a greater token even when the counter went back, as on a replica promoted behind', async () => {
      const { lease, leaseToken } = keys.instrument('btc_usdt');
      await client.set(leaseToken, '10');
      const first = Number(await run(ACQUIRE_LEASE, acquireCall(keys, 'btc_usdt', 'a', 60_000)));
      // The promoted replica never saw this acquisition nor the ones before: no lease, an older counter.
      await client.del(lease);
      await client.set(leaseToken, '5');
      const second = Number(await run(ACQUIRE_LEASE, acquireCall(keys, 'btc_usdt', 'b', 60_000)));
      expect(second).toBeGreaterThan(first);
      expect(await client.get(lease)).toBe(`${second}:b`);
      expect(Number(await client.get(leaseToken))).toBe(second);
    });

    it('renew extends only exactly the caller lease, and never brings back one that ran out', async () => {
      const token = Number(await run(ACQUIRE_LEASE, acquireCall(keys, 'btc_usdt', 'a', 30_000)));
      expect(await run(RENEW_LEASE, renewCall(keys, 'btc_usdt', `${token}:a`, 60_000))).toBe(1);
      expect(await client.pttl(keys.instrument('btc_usdt').lease)).toBeGreaterThan(50_000);
      expect(await run(RENEW_LEASE, renewCall(keys, 'btc_usdt', `${token + 1}:a`, 5_000))).toBe(0);
      expect(await run(RENEW_LEASE, renewCall(keys, 'btc_usdt', `${token}:b`, 5_000))).toBe(0);
      const other = Number(await run(ACQUIRE_LEASE, acquireCall(keys, 'eth_usdt', 'a', 100)));
      await sleep(150);
      expect(await run(RENEW_LEASE, renewCall(keys, 'eth_usdt', `${other}:a`, 5_000))).toBe(0);
      expect(await client.exists(keys.instrument('eth_usdt').lease)).toBe(0);
    });

    it('release deletes only exactly the caller lease', async () => {
      const token = Number(await run(ACQUIRE_LEASE, acquireCall(keys, 'btc_usdt', 'a', 5_000)));
      expect(await run(RELEASE_LEASE, releaseCall(keys, 'btc_usdt', `${token}:b`))).toBe(0);
      expect(await run(RELEASE_LEASE, releaseCall(keys, 'btc_usdt', `${token}:a`))).toBe(1);
      expect(await client.exists(keys.instrument('btc_usdt').lease)).toBe(0);
    });

    it('heartbeat lists the live members and drops those that stopped beating', async () => {
      expect(await run(HEARTBEAT, heartbeatCall(keys, 'a', 2_000))).toEqual(['a']);
      expect((await run(HEARTBEAT, heartbeatCall(keys, 'b', 30_000))) as string[]).toEqual(['a', 'b']);
      await sleep(2_100);
      expect(await run(HEARTBEAT, heartbeatCall(keys, 'c', 30_000))).toEqual(['b', 'c']);
    });

    it('a write fenced by a lease that another owner has taken since is refused', async () => {
      const store = new RedisStateStore(client, { prefix });
      await store.ready();
      const write = (fence: WriteFence, version: number): InstrumentWrite => ({
        instrument: 'btc_usdt',
        replace: true,
        head: head('btc_usdt', version),
        levels: { bids: [['100', String(version)]], asks: [] },
        fence,
      });
      const lease = keys.instrument('btc_usdt').lease;
      const first = Number(await run(ACQUIRE_LEASE, acquireCall(keys, 'btc_usdt', 'a', 60_000)));
      expect(await store.write([write({ owner: 'a', token: first }, 1)])).toEqual([
        { instrument: 'btc_usdt', result: 'written' },
      ]);
      await client.pexpire(lease, 1);
      await waitFor(async () => (await client.exists(lease)) === 0, 'the lease run out');
      const second = Number(await run(ACQUIRE_LEASE, acquireCall(keys, 'btc_usdt', 'b', 5_000)));
      expect(await store.write([write({ owner: 'a', token: first }, 2)])).toEqual([
        { instrument: 'btc_usdt', result: 'fenced' },
      ]);
      expect(await store.write([write({ owner: 'b', token: second }, 3)])).toEqual([
        { instrument: 'btc_usdt', result: 'written' },
      ]);
      expect((await store.readBook('btc_usdt'))?.version).toBe(3);
      await store.close();
    });
  });

  describe('LeaseOwnership', () => {
    const LISTED = ['a_x', 'b_x', 'c_x', 'd_x', 'e_x', 'f_x', 'g_x', 'h_x', 'i_x'];
    const TTL = 1_500;
    let replicas: Map<string, { ownership: LeaseOwnership; owned: Map<string, WriteFence>; log: string[] }>;

    beforeEach(() => {
      replicas = new Map();
    });
    afterEach(async () => {
      for (const { ownership } of replicas.values()) await ownership.stop();
    });

    function startReplica(name: string): LeaseOwnership {
      const owned = new Map<string, WriteFence>();
      const log: string[] = [];
      const ownership = new LeaseOwnership({ client, keys, owner: name, ttlMs: TTL, settleMs: 200 });
      const listener: OwnershipListener = {
        acquired: (instrument, fence) => {
          owned.set(instrument, fence!);
          log.push(`+${instrument}`);
        },
        lost: (instrument, reason) => {
          owned.delete(instrument);
          log.push(`-${instrument} ${reason}`);
        },
      };
      replicas.set(name, { ownership, owned, log });
      ownership.start(listener);
      ownership.setListed(LISTED);
      return ownership;
    }

    /** Owners as Redis holds them, and as the replicas believe. */
    async function owners(): Promise<{ stored: (string | null)[]; believed: string[][] }> {
      const stored = await Promise.all(
        LISTED.map((instrument) => client.get(keys.instrument(instrument).lease)),
      );
      const believed = LISTED.map((instrument) =>
        [...replicas].filter(([, replica]) => replica.owned.has(instrument)).map(([name]) => name),
      );
      return { stored, believed };
    }

    async function exactlyOneOwnerEach(names: string[]): Promise<boolean> {
      const { stored, believed } = await owners();
      return LISTED.every((_, index) => {
        const holder = stored[index];
        return (
          believed[index].length === 1 &&
          names.includes(believed[index][0]) &&
          holder ===
            `${replicas.get(believed[index][0])!.owned.get(LISTED[index])!.token}:${believed[index][0]}`
        );
      });
    }

    const shares = () => [...replicas.values()].map(({ owned }) => owned.size);

    it('shares the instruments out, one owner each, fair shares', async () => {
      for (const name of ['r1', 'r2', 'r3']) startReplica(name);
      await waitFor(() => exactlyOneOwnerEach(['r1', 'r2', 'r3']), 'one owner each', 5_000);
      await waitFor(() => shares().every((share) => share === 3), 'fair shares', 5_000);
      // Each replica sees every instrument owned from its next round on.
      await waitFor(
        () => [...replicas.values()].every(({ ownership }) => ownership.status().unowned === 0),
        'nothing unowned',
        10_000,
      );
      for (const { ownership } of replicas.values())
        expect(ownership.status()).toEqual({ settled: true, owned: 3, replicas: 3, unowned: 0 });
    });

    it('hands a dead replica instruments to the others once its leases run out', async () => {
      for (const name of ['r1', 'r2', 'r3']) startReplica(name);
      await waitFor(() => shares().every((share) => share === 3), 'fair shares', 5_000);
      // A crash: no more renewals, no release.
      const dead = replicas.get('r3')!;
      await dead.ownership.stop();
      const orphans = [...dead.owned.keys()];
      replicas.delete('r3');
      // Timed from when the last of its leases runs out, wherever the crash fell in its renewal cycle.
      const leftMs = await Promise.all(
        orphans.map((instrument) => client.pttl(keys.instrument(instrument).lease)),
      );
      expect(Math.max(...leftMs)).toBeLessThanOrEqual(TTL);
      // The survivors' rounds take them once the leases run out; a renewal left behind would keep them.
      await waitFor(() => exactlyOneOwnerEach(['r1', 'r2']), 'takeover', 5_000);
      expect(shares().sort()).toEqual([4, 5]);
      for (const instrument of orphans) {
        const fence = [...replicas.values()]
          .find(({ owned }) => owned.has(instrument))!
          .owned.get(instrument)!;
        expect(fence.token).toBeGreaterThan(1);
      }
    });

    it('rebalances when a replica joins, and releases everything at once on shutdown', async () => {
      startReplica('r1');
      await waitFor(() => exactlyOneOwnerEach(['r1']), 'one owner', 5_000);
      startReplica('r2');
      await waitFor(() => shares().join() === '5,4' || shares().join() === '4,5', 'rebalanced', 5_000);
      expect(await exactlyOneOwnerEach(['r1', 'r2'])).toBe(true);
      expect(replicas.get('r1')!.log.filter((entry) => entry.endsWith('rebalanced')).length).toBeGreaterThan(
        0,
      );
      const leaving = replicas.get('r2')!;
      const released = [...leaving.owned.keys()];
      await leaving.ownership.stop();
      await leaving.ownership.release();
      replicas.delete('r2');
      expect(await client.zrange(keys.ingestMembers, '0', '-1')).toEqual(['r1']);
      // Released leases are free at once, not left to run out: none is still held by the leaver.
      const holders = await Promise.all(
        released.map((instrument) => client.get(keys.instrument(instrument).lease)),
      );
      expect(holders.filter((holder) => holder?.endsWith(':r2'))).toEqual([]);
      await waitFor(() => exactlyOneOwnerEach(['r1']), 'takeover after release', 10_000);
    });

    it('loses an instrument whose write was fenced, and an unlisted one, and lets another take them', async () => {
      const r1 = startReplica('r1');
      await waitFor(() => exactlyOneOwnerEach(['r1']), 'one owner', 5_000);
      r1.fenced('a_x');
      r1.setListed(LISTED.filter((instrument) => instrument !== 'b_x'));
      expect(replicas.get('r1')!.log.slice(-2)).toEqual(['-a_x fenced', '-b_x unlisted']);
      expect(await client.exists(keys.instrument('b_x').lease)).toBe(0);
      expect(await client.get(keys.instrument('a_x').lease)).toMatch(/^\d+:r1$/);
    });
  });

  describe('on a Redis Cluster', () => {
    let cluster: TestRedisCluster;
    const clients: RedisClient[] = [];

    beforeAll(async () => {
      cluster = await startRedisCluster();
    }, 60_000);
    afterAll(async () => {
      for (const clusterClient of clients) clusterClient.disconnect();
      await cluster.stop();
    });

    it('shares instruments spread over every node out, one owner each, and hands them over', async () => {
      const listed = Array.from({ length: 12 }, (_, index) => `m${index}_x`);
      const owned = new Map<string, Set<string>>();
      const ownerships = ['c1', 'c2'].map((name) => {
        const clusterClient = createRedisClient({ REDIS_URL: cluster.urls[0], REDIS_CLUSTER: true });
        clients.push(clusterClient);
        const mine = new Set<string>();
        owned.set(name, mine);
        const ownership = new LeaseOwnership({
          client: clusterClient,
          keys: new StoreKeys('cluster-leases'),
          owner: name,
          ttlMs: 1_500,
          settleMs: 200,
        });
        ownership.start({
          acquired: (instrument) => mine.add(instrument),
          lost: (instrument) => mine.delete(instrument),
        });
        ownership.setListed(listed);
        return ownership;
      });
      const sizes = () => [...owned.values()].map((mine) => mine.size);
      await waitFor(() => sizes().join() === '6,6', 'fair shares on the cluster', 5_000);
      const all = [...owned.values()].flatMap((mine) => [...mine]);
      expect(new Set(all).size).toBe(listed.length);
      await ownerships[1].stop();
      await ownerships[1].release();
      await waitFor(() => owned.get('c1')!.size === listed.length, 'takeover on the cluster', 10_000);
      await ownerships[0].stop();
    });
  });
});
