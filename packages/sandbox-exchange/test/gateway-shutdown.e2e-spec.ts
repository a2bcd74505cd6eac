import { settlesWithin } from './support/settles-within';
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
      // Done before the fault's timer (60 s) or a socket's closing handshake (30 s) would end.
      const closing = sandbox.close();
      expect(await settlesWithin(closing, 10_000)).toBe(true);
      await closing;
      expect(client.isOpen).toBe(false);
      expect((await client.closed).code).toBe(1001);
    } finally {
      await client.close();
    }
  });
});
