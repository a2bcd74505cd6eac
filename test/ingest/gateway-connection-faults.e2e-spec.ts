import { FAST_APP, FAST_SANDBOX } from '../support/fault-cases';
import { describeConvergenceAfterFaults } from '../support/fault-suite';

// Books from the gateway's Level 2 feed (no hub connection at all), trades from the gateway, state in Redis.
describeConvergenceAfterFaults(
  'books from the gateway: convergence after connection faults',
  { sandbox: FAST_SANDBOX, app: { ...FAST_APP, BOOK_SOURCE: 'gateway' } },
  [
    'drop-connections: every connection cut and refused for a while',
    'drop-connections flapping',
    'silence longer than the timeouts',
    'expire-sessions',
    'trade-history-down while trades need backfilling',
  ],
);
