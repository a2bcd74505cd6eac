import { ConsoleEvent } from './console-event';
import { statusSnapshot } from './status-snapshot';

const event = (overrides: Partial<ConsoleEvent>): ConsoleEvent => ({
  at: 1_000,
  kind: 'sync',
  message: 'BTC_USDT: book re-synchronising',
  incident: null,
  ...overrides,
});

describe('statusSnapshot', () => {
  const input = {
    now: 10_000,
    staleAfterMs: 60_000,
    storeReachable: true,
    sandbox: false,
    markets: [
      { market: 'BTC_USDT', syncState: 'live', dataAgeMs: 120 },
      { market: 'ETH_USDT', syncState: 'resync', dataAgeMs: 80 },
      { market: 'XRP_USDT', syncState: 'live', dataAgeMs: 61_000 },
      { market: 'SOL_EUR', syncState: undefined, dataAgeMs: null },
    ],
    events: [] as ConsoleEvent[],
  };

  it('calls a market live only while its book is live and its data younger than staleAfterMs', () => {
    expect(statusSnapshot(input).markets.map((market) => market.state)).toEqual([
      'live',
      'stale',
      'stale',
      'stale',
    ]);
    expect(statusSnapshot({ ...input, storeReachable: false }).markets[0].state).toBe('stale');
  });

  it('tells incidents in its own words, never the internal message', () => {
    const events = [
      event({
        at: 3,
        message: 'BTC_USDT: book live again (was re-synchronising)',
        market: 'BTC_USDT',
        incident: 'ended',
      }),
      event({ at: 2, message: 'hub: connecting (was connected)', kind: 'upstream' }),
      event({ at: 1, message: 'BTC_USDT: book re-synchronising', market: 'BTC_USDT', incident: 'began' }),
      event({
        at: 0,
        message: 'the store is unreachable: the last good state is served',
        kind: 'store',
        incident: 'began',
      }),
    ];
    expect(statusSnapshot({ ...input, events }).incidents).toEqual([
      { at: 3, market: 'BTC_USDT', message: 'data live again' },
      { at: 1, market: 'BTC_USDT', message: 'data interrupted' },
      { at: 0, market: null, message: 'all markets: data may be delayed' },
    ]);
  });

  it('carries the market name, state and data age only', () => {
    for (const market of statusSnapshot(input).markets)
      expect(Object.keys(market).sort()).toEqual(['dataAgeMs', 'market', 'state']);
  });
});
