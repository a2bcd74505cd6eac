import { StallAwareRedis } from '../../src/store/stall-aware-redis';
import { eventually } from '../../src/store/testing/state-store-contract';
import { sleep } from '../support/fault-run';
import { startRedisServer, TestRedisServer } from '../support/redis-server';

/**
 * ioredis ends a connection for good when a reconnection fails in its connector (through Sentinels:
 * the failover detector of the connection before closing the connector while it looks for the new
 * primary). Here a retry strategy that gives up ends it the same way, on a server killed for a while.
 */
describe('a connection that ends without its owner closing it', () => {
  let server: TestRedisServer;
  let client: StallAwareRedis;

  beforeEach(async () => {
    server = await startRedisServer();
    client = new StallAwareRedis(server.url, { retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    await client.ping();
  });

  afterEach(async () => {
    client.disconnect();
    await server.stop();
  });

  it('is made again, and serves once the server is back', async () => {
    if (!server.canKill) return;
    await server.kill();
    await eventually(() => expect(client.status).toBe('end'));
    await sleep(500);
    await server.restart();
    await eventually(async () => expect(await client.ping()).toBe('PONG'), 10_000);
  });

  it('stays closed once its owner closes it', async () => {
    client.disconnect();
    await sleep(500);
    expect(client.status).toBe('end');
  });

  it('stays closed after QUIT', async () => {
    await client.quit();
    await sleep(500);
    expect(client.status).toBe('end');
  });
});
