/**
 * Every fault the sandbox can inject. A `switch` stays on until switched off; a `pulse` acts once
 * when switched on and is off again immediately.
 */
export const FAULTS = {
  'drop-connections': {
    kind: 'switch',
    description: 'Terminates every hub and gateway connection and refuses new ones while on.',
  },
  'skip-version': {
    kind: 'switch',
    description:
      'Withholds the next `count` book deltas (default 1) from the hub and the gateway, then switches off.',
  },
  'duplicate-deltas': {
    kind: 'switch',
    description: 'Sends every book delta twice on the hub and the gateway while on.',
  },
  'reorder-deltas': {
    kind: 'switch',
    description: 'Swaps consecutive book deltas of each market on the hub and the gateway while on.',
  },
  'malformed-frame': {
    kind: 'switch',
    description:
      'Sends a malformed frame on every hub and gateway connection every `intervalMs` (default 1000) while on.',
  },
  silence: {
    kind: 'switch',
    description: 'Stops pings and data on every hub and gateway connection while on; connections stay open.',
  },
  'rest-429': {
    kind: 'switch',
    description: 'Answers REST calls with 429 while on (share of calls: `probability`, default 1).',
  },
  'rest-503': {
    kind: 'switch',
    description:
      'Answers REST calls with 503 "System is currently overloaded" while on (share: `probability`, default 1).',
  },
  'trade-history-down': {
    kind: 'switch',
    description: 'Answers every GetTradesHistory call on the gateway with an error while on.',
  },
  'hub-close': {
    kind: 'pulse',
    description:
      'Sends a hub Close message to every hub connection; `allowReconnect` (default false) is passed on.',
  },
  'expire-sessions': {
    kind: 'pulse',
    description:
      'Invalidates every login session and gateway token and closes authenticated gateway connections.',
  },
  'halt-market': {
    kind: 'switch',
    description: 'Sets the market `instrument` to Halted while on: no new orders, no flow.',
  },
  'pause-market': {
    kind: 'switch',
    description: 'Sets the market `instrument` to Paused while on: placement rejected, no flow.',
  },
  'stop-matching': {
    kind: 'switch',
    description:
      'Stops matching in the market `instrument` while on: limit orders rest even when they cross, market orders are cancelled unfilled; off, the crossing orders trade.',
  },
  burst: {
    kind: 'switch',
    description: 'Drives `updatesPerSecond` book updates per second across the open markets while on.',
  },
} as const satisfies Record<string, { kind: 'switch' | 'pulse'; description: string }>;

export type FaultName = keyof typeof FAULTS;

export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

export function isFaultName(name: unknown): name is FaultName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(FAULTS, name);
}
