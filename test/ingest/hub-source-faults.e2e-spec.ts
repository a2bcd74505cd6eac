import { FAST_APP, FAST_SANDBOX, FAULT_CASES, FaultCase, LISTED } from '../support/fault-cases';
import { ConvergenceLog } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges } from '../support/truth';

const CASES: FaultCase[] = [
  'drop-connections: every connection cut and refused for a while',
  'skip-version: deltas lost while the market keeps moving',
  'skip-version: the last deltas lost before the market goes quiet',
  'duplicate-deltas',
  'reorder-deltas',
  'malformed-frame every 200 ms',
  'silence longer than the timeouts',
  'rest-429 while gaps need re-syncing',
  'rest-503 while gaps need re-syncing',
  'hub-close without allowReconnect',
  'hub-close with allowReconnect',
  'expire-sessions',
];

/**
 * Books from the hub, trades from the gateway, state in Redis: after each fault of the exchange,
 * switched on while the market moves and off again, the store holds exactly the exchange's books at
 * the same version and its 24-hour trades, none missing and none doubled.
 */
describe('ingest with books from the hub: convergence after every fault', () => {
  let stack: TestStack;
  const log = new ConvergenceLog();

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: FAST_SANDBOX, app: FAST_APP });
    await expectConverges(stack.sandbox, stack.store, LISTED, 15_000);
  });
  afterAll(async () => {
    log.report('books from the hub: convergence after each fault');
    await stack.close();
  });

  it.each(CASES)('%s', async (fault) => {
    await FAULT_CASES[fault](stack.sandbox);
    log.record(fault, await expectConverges(stack.sandbox, stack.store, LISTED, 10_000));
  });
});
