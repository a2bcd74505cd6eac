import Redis from 'ioredis';
import { createRedisClient } from '../../src/store/redis-connection';
import { StallAwareRedis } from '../../src/store/stall-aware-redis';
import { eventually } from '../../src/store/testing/state-store-contract';
import { startRedisServer, TestRedisServer } from '../support/redis-server';

/**
 * A connection that waits out outages (BullMQ's workers) holds its commands while Redis is away.
 * Closed by its owner between two reconnection attempts, it must end and reject them: a command left
 * pending keeps whoever awaits it (BullMQ's blocking wait and its watchdog timer) alive.
 */
describe('a waiting connection closed while Redis is away', () => {
  let server: TestRedisServer;
  let client: Redis;

  beforeEach(async () => {
    server = await startRedisServer();
    client = createRedisClient(
      { REDIS_URL: server.url, REDIS_CLUSTER: false },
      { commands: 'wait' },
    ) as Redis;
    client.on('error', () => undefined);
    await client.ping();
  });

  afterEach(async () => {
    client.disconnect();
    await server.stop();
  });

  const timers = (): number =>
    process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

  async function closedBetweenAttempts(connection: Redis): Promise<void> {
    await server.kill();
    await eventually(() => expect(connection.status).toBe('reconnecting'));
    const queued = connection.get('k');
    const ended = new Promise((resolve) => connection.once('end', resolve));
    const timersWaiting = timers();
    connection.disconnect();
    await expect(queued).rejects.toThrow('Connection is closed.');
    await ended;
    expect(connection.status).toBe('end');
    // The next attempt's timer is gone, and none is left to destroy the socket that closed already.
    expect(timers()).toBeLessThan(timersWaiting);
  }

  it('ends and rejects the commands it queued', async () => {
    if (!server.canKill) return;
    await closedBetweenAttempts(client);
  });

  it('does the same as a duplicate, as BullMQ makes its blocking connection', async () => {
    if (!server.canKill) return;
    const duplicate = client.duplicate();
    duplicate.on('error', () => undefined);
    expect(duplicate).toBeInstanceOf(StallAwareRedis);
    await duplicate.ping();
    await client.quit();
    await closedBetweenAttempts(duplicate);
  });
});
