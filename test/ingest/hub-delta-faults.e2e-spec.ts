import { FAST_SANDBOX, FAST_SANDBOX_TUNING, FAST_TUNING } from '../support/fault-cases';
import { describeConvergenceAfterFaults } from '../support/fault-suite';

// Books from the hub, trades from the gateway, state in Redis.
describeConvergenceAfterFaults(
  'books from the hub: convergence after damaged feeds and failing REST',
  { sandbox: FAST_SANDBOX, sandboxTuning: FAST_SANDBOX_TUNING, tuning: FAST_TUNING },
  [
    'skip-version: deltas lost while the market keeps moving',
    'skip-version: the last deltas lost before the market goes quiet',
    'duplicate-deltas',
    'reorder-deltas',
    'burst of 3000 book updates per second',
    'malformed-frame every 200 ms',
    'rest-429 while gaps need re-syncing',
    'rest-503 while gaps need re-syncing',
  ],
);
