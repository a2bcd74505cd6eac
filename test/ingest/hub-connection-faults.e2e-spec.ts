import { FAST_SANDBOX, FAST_SANDBOX_TUNING, FAST_TUNING } from '../support/fault-cases';
import { describeConvergenceAfterFaults } from '../support/fault-suite';

// Books from the hub, trades from the gateway, state in Redis.
describeConvergenceAfterFaults(
  'books from the hub: convergence after connection faults',
  { sandbox: FAST_SANDBOX, sandboxTuning: FAST_SANDBOX_TUNING, tuning: FAST_TUNING },
  [
    'drop-connections: every connection cut and refused for a while',
    'drop-connections flapping',
    'silence longer than the timeouts',
    'hub-close without allowReconnect',
    'hub-close with allowReconnect',
    'expire-sessions',
  ],
);
