import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import Redis from 'ioredis';
import { createRedisClient, createStoreRedisClient } from '../../src/store/redis-connection';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { STALLED } from '../../src/store/stall-aware-redis';
import { InstrumentWrite } from '../../src/store/state-store';
import { eventually, head } from '../../src/store/testing/state-store-contract';
import { startRedisServer, TestRedisServer } from '../support/redis-server';
import { SilentProxy } from '../support/silent-proxy';

const BTC = 'btc_usdt';
const TIMEOUT_MS = 300;

const write = (version: number): InstrumentWrite => ({
  instrument: BTC,
  replace: true,
  head: head(BTC, version),
  levels: { bids: [['100', String(version)]], asks: [] },
});

/**
 * Redis that stops answering without closing anything: a server asleep, or a path gone silent. A
 * connection notices within its command timeout, remakes itself, and the store follows again.
 */
describe('a Redis that stops answering', () => {
  let server: TestRedisServer;
  let proxy: SilentProxy;
  const closing: (() => Promise<void> | void)[] = [];
  let prefix: string;

  beforeAll(async () => {
    server = await startRedisServer({ args: ['--enable-debug-command', 'local'] });
  });

  beforeEach(async () => {
    proxy = await SilentProxy.start(Number(new URL(server.url).port));
    prefix = `stall-${randomUUID().slice(0, 8)}`;
  });

  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
    await proxy.close();
  });

  afterAll(async () => {
    await server.stop();
  });

  async function openStore(url: string): Promise<{ store: RedisStateStore; client: Redis }> {
    const client = createStoreRedisClient(url, { commandTimeoutMs: TIMEOUT_MS, maxReconnectDelayMs: 100 });
    client.on('error', () => undefined);
    const store = new RedisStateStore(client, {
      prefix,
      closeClient: true,
      logger: { warn: () => undefined },
    });
    closing.push(() => store.close());
    await store.ready();
    return { store, client };
  }

  it('drops a connection whose path went silent and follows the changes again on a new one', async () => {
    const direct = (await openStore(server.url)).store;
    const { store, client } = await openStore(proxy.url);
    const versions: number[] = [];
    store.onChange((notice) => notice.kind === 'instrument' && versions.push(notice.bookVersion));
    await direct.write([write(1)]);
    await eventually(() => expect(versions).toContain(1));

    proxy.silenceOpenConnections();
    const stalled = once(client, STALLED);
    await expect(store.readBook(BTC)).rejects.toThrow(/did not answer in time/);
    await stalled;

    // The new data connection reads, and the new subscriber hears of later writes.
    await eventually(async () => expect((await store.readBook(BTC))?.version).toBe(1), 10_000);
    await eventually(async () => {
      await direct.write([write(versions.length + 10)]);
      expect(versions.at(-1)).toBeGreaterThanOrEqual(10);
    }, 10_000);
  });

  it('treats a server asleep in DEBUG SLEEP as an outage within the command timeout', async () => {
    const { store, client } = await openStore(server.url);
    await store.write([write(1)]);
    let reconnections = 0;
    client.on('reconnecting', () => (reconnections += 1));

    const sleeper = new Redis(server.url);
    closing.push(() => sleeper.disconnect());
    const probe = new Redis(server.url, { commandTimeout: 100, maxRetriesPerRequest: 0 });
    probe.on('error', () => undefined);
    closing.push(() => probe.disconnect());
    await Promise.all([sleeper.ping(), probe.ping()]);
    const asleep = sleeper.call('DEBUG', 'SLEEP', '3');
    await untilAsleep(probe);
    await expect(store.readBook(BTC)).rejects.toThrow(/did not answer in time/);
    expect((await store.health()).reachable).toBe(false);
    await eventually(() => expect(reconnections).toBeGreaterThan(0), 2_000);

    await asleep;
    await eventually(async () => expect((await store.readBook(BTC))?.version).toBe(1), 10_000);
  });

  it('remakes any connection of the gateway, such as the one for leases, after a stall', async () => {
    const client = createRedisClient(
      { REDIS_URL: proxy.url, REDIS_CLUSTER: false },
      { commandTimeoutMs: TIMEOUT_MS },
    );
    client.on('error', () => undefined);
    closing.push(() => client.disconnect());
    await once(client, 'ready');
    await client.set(`${prefix}:key`, 'value');

    proxy.silenceOpenConnections();
    const stalled = once(client, STALLED);
    await expect(client.get(`${prefix}:key`)).rejects.toThrow('Command timed out');
    await stalled;
    await eventually(async () => expect(await client.get(`${prefix}:key`)).toBe('value'), 10_000);
  });
});

/** Resolves once the server no longer answers the probe's PING within its command timeout. */
async function untilAsleep(probe: Redis): Promise<void> {
  for (;;) {
    const answered = await probe.ping().then(
      () => true,
      () => false,
    );
    if (!answered) return;
  }
}
