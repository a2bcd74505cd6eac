import { expectConverges, setFlow } from '../support/truth';
import { startTestStack, TestStack } from '../support/start-test-stack';

const OPEN = ['btc_usdt', 'eth_btc', 'eth_usdt', 'shib_usdt', 'pepe_eth', 'sol_eur', 'usdc_usdt'];

describe('ingest into Redis', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '20' } });
  });
  afterAll(() => stack.close());

  it('stores every listed market exactly as the exchange has it', async () => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await expectConverges(stack.sandbox, stack.store, [...OPEN, 'ltc_btc', 'xrp_usdt']);
    await setFlow(stack.sandbox, 20);
  });
});
