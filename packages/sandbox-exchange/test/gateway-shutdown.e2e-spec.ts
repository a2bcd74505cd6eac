import { GatewayTestClient } from './support/gateway-test-client';
import { startTestSandbox } from './support/start-test-sandbox';

describe('sandbox gateway: shutdown', () => {
  it('closes every gateway socket when the application closes', async () => {
    const sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_HISTORY_HOURS: '0' });
    const client = await GatewayTestClient.connect(`${sandbox.wsUrl}/WSGateway/`);
    try {
      await client.call('SubscribeLevel1', { OMSId: 1, InstrumentId: 1 });
      await client.call('SubscribeLevel2', { OMSId: 1, InstrumentId: 1, Depth: 5 });
      sandbox.exchange.faults.set('malformed-frame', true, { intervalMs: 60_000 });
      const started = Date.now();
      await sandbox.close();
      // Waiting for the fault's timer or for a socket's closing handshake (30 s) would take longer.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(client.isOpen).toBe(false);
      expect((await client.closed).code).toBe(1001);
    } finally {
      await client.close();
    }
  });
});
