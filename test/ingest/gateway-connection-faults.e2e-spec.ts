import { FAST_SANDBOX, FAST_SANDBOX_TUNING, FAST_TUNING } from '../support/fault-cases';
import { describeConvergenceAfterFaults } from '../support/fault-suite';

// Books from the gateway's Level 2 feed (no hub connection at all), trades from the gateway, state in Redis.
describeConvergenceAfterFaults(
  'books from the gateway: convergence after connection faults',
  {
    sandbox: FAST_SANDBOX,
    sandboxTuning: FAST_SANDBOX_TUNING,
    app: { BOOK_SOURCE: 'gateway' },
    tuning: FAST_TUNING,
  },
  [
    'drop-connections: every connection cut and refused for a while',
    'drop-connections flapping',
    'silence longer than the timeouts',
    'expire-sessions',
    'trade-history-down while trades need backfilling',
  ],
);
