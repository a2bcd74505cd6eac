import { GatewayClient } from '../../src/upstream/gateway/gateway-client';
import { CapturingLogger } from '../../src/upstream/gateway/testing/capturing-logger';
import { freePort } from '../support/redis-server';

describe('GatewayClient: why a connection could not be made', () => {
  it('says the gateway is unreachable when nothing listens', async () => {
    const port = await freePort();
    const logger = new CapturingLogger();
    const client = new GatewayClient({
      wsUrl: `ws://127.0.0.1:${port}`,
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
      logger,
    });
    client.start();
    try {
      const deadline = Date.now() + 20_000;
      while (!logger.lines.some((line) => line.startsWith('warn ')) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await client.stop();
    }
    expect(logger.lines.find((line) => line.startsWith('warn '))).toBe(
      `warn gateway: unreachable at ws://127.0.0.1:${port}/WSGateway/: connection refused`,
    );
  });
});
