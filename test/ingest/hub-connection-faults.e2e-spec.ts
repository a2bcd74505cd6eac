import { FAST_APP, FAST_SANDBOX } from '../support/fault-cases';
import { describeConvergenceAfterFaults } from '../support/fault-suite';

// Books from the hub, trades from the gateway, state in Redis.
describeConvergenceAfterFaults(
  'books from the hub: convergence after connection faults',
  { sandbox: FAST_SANDBOX, app: FAST_APP },
  [
    'drop-connections: every connection cut and refused for a while',
    'drop-connections flapping',
    'silence longer than the timeouts',
    'hub-close without allowReconnect',
    'hub-close with allowReconnect',
    'expire-sessions',
  ],
);
