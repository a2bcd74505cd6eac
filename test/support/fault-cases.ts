import { RunningSandbox, SandboxTuning } from 'sandbox-exchange';
import { Tuning } from '../../src/config/tuning';
import { runFault } from './fault-run';
import { setFault } from './truth';

/** Every listed sandbox market: the open ones, the halted and the paused one (not the hidden one). */
export const LISTED = [
  'btc_usdt',
  'eth_btc',
  'eth_usdt',
  'shib_usdt',
  'pepe_eth',
  'sol_eur',
  'usdc_usdt',
  'ltc_btc',
  'xrp_usdt',
];

/** Synthetic orders per second per market while a fault is on. */
export const FLOW = 20;

const SANDBOX_KEEPALIVE_MS = 300;
export const SERVER_TIMEOUT_MS = 1_000;

/** A sandbox that pings often, so that a silent one is told apart from a quiet market in a second. */
export const FAST_SANDBOX = { SANDBOX_FLOW_RATE: String(FLOW) };
export const FAST_SANDBOX_TUNING: Partial<SandboxTuning> = { hubKeepAliveMs: SANDBOX_KEEPALIVE_MS };

/** Upstream timeouts of a second or less, a verification round of a few seconds. */
export const FAST_TUNING: Partial<Tuning> = {
  upstreamKeepAliveMs: SANDBOX_KEEPALIVE_MS / 2,
  upstreamServerTimeoutMs: SERVER_TIMEOUT_MS,
  upstreamPongTimeoutMs: 800,
  bookVerifyIntervalMs: 1000,
  // Few trades per subscription, so that every reconnect pages the rest from the trade history.
  tradesSnapshotCount: 5,
};

/** Each fault as a test drives it: on while the market moves, then off. */
export const FAULT_CASES = {
  'drop-connections: every connection cut and refused for a while': (sandbox: RunningSandbox) =>
    runFault(sandbox, 'drop-connections', { flowRate: FLOW, onMs: 1_000 }),
  // Connections come back and are cut again while subscriptions recover and trades are backfilled.
  'drop-connections flapping': async (sandbox: RunningSandbox) => {
    for (let cycle = 0; cycle < 6; cycle++) {
      await runFault(sandbox, 'drop-connections', { flowRate: FLOW, onMs: 300, afterMs: 200 + 100 * cycle });
    }
  },
  'skip-version: deltas lost while the market keeps moving': (sandbox: RunningSandbox) =>
    runFault(sandbox, 'skip-version', { flowRate: FLOW, onMs: 500, afterMs: 500, params: { count: 3 } }),
  // No later delta reveals the gap: only the check against REST snapshots can.
  'skip-version: the last deltas lost before the market goes quiet': (sandbox: RunningSandbox) =>
    runFault(sandbox, 'skip-version', { flowRate: FLOW, onMs: 300, params: { count: 1_000_000 } }),
  'duplicate-deltas': (sandbox: RunningSandbox) =>
    runFault(sandbox, 'duplicate-deltas', { flowRate: FLOW, onMs: 1_000 }),
  'reorder-deltas': (sandbox: RunningSandbox) =>
    runFault(sandbox, 'reorder-deltas', { flowRate: FLOW, onMs: 1_000 }),
  'burst of 3000 book updates per second': (sandbox: RunningSandbox) =>
    runFault(sandbox, 'burst', { flowRate: FLOW, onMs: 1_500, params: { updatesPerSecond: 3_000 } }),
  'malformed-frame every 200 ms': (sandbox: RunningSandbox) =>
    runFault(sandbox, 'malformed-frame', { flowRate: FLOW, onMs: 1_000, params: { intervalMs: 200 } }),
  'silence longer than the timeouts': (sandbox: RunningSandbox) =>
    runFault(sandbox, 'silence', { flowRate: FLOW, onMs: 2 * SERVER_TIMEOUT_MS }),
  'expire-sessions': (sandbox: RunningSandbox) =>
    runFault(sandbox, 'expire-sessions', { flowRate: FLOW, onMs: 1_000, pulse: true }),
  'hub-close without allowReconnect': (sandbox: RunningSandbox) =>
    runFault(sandbox, 'hub-close', { flowRate: FLOW, onMs: 500, pulse: true }),
  'hub-close with allowReconnect': (sandbox: RunningSandbox) =>
    runFault(sandbox, 'hub-close', {
      flowRate: FLOW,
      onMs: 500,
      pulse: true,
      params: { allowReconnect: true },
    }),
  // Reconnections leave trade gaps while the history cannot fill them: it is asked again until it answers.
  'trade-history-down while trades need backfilling': async (sandbox: RunningSandbox) => {
    await setFault(sandbox, 'trade-history-down', true);
    await runFault(sandbox, 'drop-connections', { flowRate: FLOW, onMs: 1_000 });
    await setFault(sandbox, 'trade-history-down', false);
  },
  // REST fails throughout, so that recovery from the gaps cannot lean on REST snapshots.
  'rest-429 while gaps need re-syncing': (sandbox: RunningSandbox) => withRestFailing(sandbox, 'rest-429'),
  'rest-503 while gaps need re-syncing': (sandbox: RunningSandbox) => withRestFailing(sandbox, 'rest-503'),
} as const;

export type FaultCase = keyof typeof FAULT_CASES;

async function withRestFailing(sandbox: RunningSandbox, fault: 'rest-429' | 'rest-503'): Promise<void> {
  await setFault(sandbox, fault, true);
  await runFault(sandbox, 'skip-version', { flowRate: FLOW, onMs: 1_000, params: { count: 3 } });
  await setFault(sandbox, fault, false);
}
