import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { createStoreRedisClient } from '../../src/store/redis-connection';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { InstrumentWrite, PriceLevel } from '../../src/store/state-store';
import {
  describeStateStoreContract,
  eventually,
  head,
  trade,
} from '../../src/store/testing/state-store-contract';
import { sleep } from '../support/fault-run';
import { startRedisServer, TestRedisServer } from '../support/redis-server';
import { redisStoreUnderTest } from './redis-store-under-test';

const BTC = 'btc_usdt';

/** Stores of one test on one prefix; their warnings are kept rather than printed. */
class StoreSet {
  readonly warnings: string[] = [];
  private readonly stores: RedisStateStore[] = [];
  readonly admin: Redis;

  constructor(
    private readonly url: string,
    readonly prefix = `test-${randomUUID().slice(0, 8)}`,
  ) {
    this.admin = new Redis(url, { lazyConnect: true });
  }

  async open(): Promise<RedisStateStore> {
    const store = RedisStateStore.fromUrl(this.url, {
      prefix: this.prefix,
      maxReconnectDelayMs: 100,
      logger: { warn: (message) => this.warnings.push(message) },
    });
    this.stores.push(store);
    await store.ready();
    return store;
  }

  async close(): Promise<void> {
    await Promise.all(this.stores.map((store) => store.close()));
    this.admin.disconnect();
  }
}

const write = (version: number, extra: Partial<InstrumentWrite> = {}): InstrumentWrite => ({
  instrument: BTC,
  replace: true,
  head: head(BTC, version),
  levels: { bids: [['100', String(version)]], asks: [] },
  ...extra,
});

let server: TestRedisServer;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await server.stop();
});

describeStateStoreContract('RedisStateStore', () => redisStoreUnderTest(new StoreSet(server.url)));

describe('RedisStateStore in Redis', () => {
  let set: StoreSet;

  beforeEach(() => {
    set = new StoreSet(server.url, `custom-${randomUUID().slice(0, 8)}`);
  });

  afterEach(async () => {
    await set.close();
  });

  it('keeps its data model under its own prefix, each instrument under one hash tag', async () => {
    const store = await set.open();
    const p = set.prefix;
    const before = new Set(await set.admin.keys('*'));
    await store.write([
      {
        instrument: BTC,
        replace: true,
        head: head(BTC, 1),
        levels: {
          bids: [
            ['99.5', '1'],
            ['99', '2'],
          ],
          asks: [['101', '3']],
        },
        tradesAdded: [trade('7', 1000), trade('7', 1000), trade('8', 1001, { side: 'sell' })],
      },
    ]);
    await store.writeCatalog({ markets: [], assets: [], refreshedAt: 5 });

    const created = (await set.admin.keys('*')).filter((key) => !before.has(key)).sort();
    expect(created).toEqual([
      `${p}:catalog`,
      `${p}:{${BTC}}:asks`,
      `${p}:{${BTC}}:bids`,
      `${p}:{${BTC}}:head`,
      `${p}:{${BTC}}:trade-history`,
      `${p}:{${BTC}}:trade-open-minute`,
    ]);
    expect(await set.admin.exists(`${p}:epoch`)).toBe(1);
    expect(await set.admin.hgetall(`${p}:{${BTC}}:bids`)).toEqual({ '99.5': '1', '99': '2' });
    expect(await set.admin.hgetall(`${p}:{${BTC}}:trade-history`)).toEqual({
      n: '2',
      lo: '0',
      hi: '0',
      om: '0',
      ot: '1001',
      oi: '8',
    });
    expect(await set.admin.get(`${p}:{${BTC}}:trade-open-minute`)).toBe(
      '\n7 1000 b 27000.5 0.25\n8 1001 s 27000.5 0.25',
    );
    expect(JSON.parse((await set.admin.get(`${p}:{${BTC}}:head`)) ?? 'null')).toEqual(head(BTC, 1));
    expect(JSON.parse((await set.admin.get(`${p}:catalog`)) ?? 'null')).toEqual({
      markets: [],
      assets: [],
      refreshedAt: 5,
    });
  });

  it('tells a store opened without instrument notices of catalogue writes alone', async () => {
    const writer = await set.open();
    const ingest = RedisStateStore.fromUrl(server.url, { prefix: set.prefix, instrumentNotices: false });
    try {
      await ingest.ready();
      const heard: unknown[] = [];
      ingest.onChange((notice) => heard.push(notice));
      const everything: unknown[] = [];
      writer.onChange((notice) => everything.push(notice));
      await writer.write([write(1)]);
      await writer.writeCatalog({ markets: [], assets: [], refreshedAt: 7 });
      await eventually(() => expect(everything).toHaveLength(2));
      await eventually(() => expect(heard).toEqual([{ kind: 'catalog', refreshedAt: 7 }]));
    } finally {
      await ingest.close();
    }
  });

  it('stores a full book of 10000 levels per side in one write', async () => {
    const store = await set.open();
    const bids: PriceLevel[] = Array.from({ length: 10_000 }, (_, i) => [`${i + 1}.000000000000000001`, '1']);
    const asks: PriceLevel[] = Array.from({ length: 10_000 }, (_, i) => [`${20_000 + i}`, '2']);
    await store.write([{ instrument: BTC, replace: true, head: head(BTC, 1), levels: { bids, asks } }]);
    const book = await store.readBook(BTC);
    expect(book?.bids).toHaveLength(10_000);
    expect(book?.bids[0]).toEqual(['10000.000000000000000001', '1']);
    expect(book?.bids[9_999]).toEqual(['1.000000000000000001', '1']);
    expect(book?.asks[0]).toEqual(['20000', '2']);
    expect(book?.asks[9_999]).toEqual(['29999', '2']);
  });

  it('loads its script again when Redis forgot it', async () => {
    const store = await set.open();
    await store.write([write(1)]);
    await set.admin.script('FLUSH');
    await expect(
      store.write([write(2), write(3, { instrument: 'eth_usdt', head: head('eth_usdt', 3) })]),
    ).resolves.toEqual([
      { instrument: BTC, result: 'written' },
      { instrument: 'eth_usdt', result: 'written' },
    ]);
    expect((await store.readBook(BTC))?.version).toBe(2);
  });

  it('adopts the epoch marker another store wrote, and notices a flush on its next health check', async () => {
    const first = await set.open();
    const second = await set.open();
    let resets = 0;
    first.onReset(() => (resets += 1));
    second.onReset(() => (resets += 1));
    await second.health();
    expect(resets).toBe(0);

    await set.admin.flushdb();
    await first.health();
    await eventually(() => expect(resets).toBe(1));
    await second.health();
    await eventually(() => expect(resets).toBe(2));
    expect(await set.admin.exists(`${set.prefix}:epoch`)).toBe(1);
  });

  it('reconnects by itself after Redis restarts empty, tells writers to replace, and announces again', async () => {
    const store = await set.open();
    const resets: number[] = [];
    store.onReset(() => resets.push(Date.now()));
    const versions: number[] = [];
    store.onChange((notice) => notice.kind === 'instrument' && versions.push(notice.bookVersion));
    await store.write([write(1)]);

    await server.restart();
    await eventually(() => expect(resets).toHaveLength(1), 10_000);
    expect(await store.readBook(BTC)).toBeUndefined();

    await eventually(async () => {
      await expect(store.write([write(2)])).resolves.toEqual([{ instrument: BTC, result: 'written' }]);
      // The subscriber resubscribes after its own reconnection; keep writing until a notice arrives.
      expect(versions).toContain(2);
    }, 10_000);
    expect((await store.readBook(BTC))?.bids).toEqual([['100', '2']]);
  });

  it('tells writers to replace when, after reconnecting, a head lacks its last acknowledged write', async () => {
    const store = await set.open();
    const resets: number[] = [];
    store.onReset(() => resets.push(Date.now()));
    const headKey = store.keys.instrument(BTC).head;
    const reconnect = () =>
      set.admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes').then(() => sleep(300));

    await store.write([write(1)]);
    await store.write([write(2, { replace: false })]);
    await reconnect();
    await eventually(async () => expect(await store.health()).toMatchObject({ reachable: true }), 5_000);
    expect(resets).toEqual([]);

    // A promoted replica that was one write behind: the head of version 1, without the epoch changing.
    const older = await set.admin.get(headKey);
    await store.write([write(3, { replace: false })]);
    await set.admin.set(headKey, older!);
    await reconnect();
    await eventually(() => expect(resets).toHaveLength(1), 10_000);
    expect(set.warnings.join('\n')).toMatch(/lacks acknowledged writes of 1 instrument\(s\) \(btc_usdt\)/);
  });

  it('treats a server that stops answering as an outage within the command timeout, then reconnects', async () => {
    const client = createStoreRedisClient(server.url, { commandTimeoutMs: 300, maxReconnectDelayMs: 100 });
    client.on('error', () => undefined);
    const store = new RedisStateStore(client, {
      prefix: set.prefix,
      closeClient: true,
      logger: { warn: (message) => set.warnings.push(message) },
    });
    await store.ready();
    await store.write([write(1)]);
    let reconnections = 0;
    client.on('reconnecting', () => (reconnections += 1));

    const pauseMs = 4_000;
    await set.admin.call('CLIENT', 'PAUSE', String(pauseMs), 'ALL');
    // Rejected by the command timeout: once the pause ended, the read would have been answered.
    await expect(store.readBook(BTC)).rejects.toThrow(/did not answer in time/);
    await eventually(() => expect(reconnections).toBeGreaterThan(0), 2_000);

    await eventually(async () => expect((await store.readBook(BTC))?.version).toBe(1), 10_000);
    await store.close();
  });

  // A server given by REDIS_URL cannot be taken down.
  const itWithPrivateServer = process.env.REDIS_URL ? it.skip : it;

  itWithPrivateServer('rejects writes and reports Redis unreachable at once while it is down', async () => {
    const store = await set.open();
    const versions: number[] = [];
    store.onChange((notice) => notice.kind === 'instrument' && versions.push(notice.bookVersion));
    await store.write([write(1)]);

    await server.kill();
    try {
      await eventually(async () => {
        expect(await store.health()).toEqual({ reachable: false, error: expect.any(String) });
      });
      // Refused as it is sent, not queued until a reconnection attempt gives up on it.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const refused = await store.write([write(2)]).then(
          () => undefined,
          (error: Error) => error,
        );
        expect(refused?.message).toMatch(/^Redis unreachable at 127\.0\.0\.1:\d+: /);
        expect((refused?.cause as Error).message).toMatch(/enableOfflineQueue/);
      }
    } finally {
      await server.restart();
    }
    // Until the notice, the subscriber may still be reconnecting, and closing it then races the resubscription.
    await eventually(async () => {
      await expect(store.write([write(3)])).resolves.toEqual([{ instrument: BTC, result: 'written' }]);
      expect(versions).toContain(3);
    }, 10_000);
  });
});
