import { MarketFigures, TradeView } from './market-views';
import { checkPollsConsistent } from './poll-consistency-checks';
import { PollSnapshot } from './poll-snapshot';
import { DAY_MS } from './trade-checks';

const NOW = Date.parse('2026-11-26T12:00:00Z');

function poll(atMs: number, baseVolume: string, trades: TradeView[], bookTime: number): PollSnapshot {
  const figures: MarketFigures = {
    market: 'BTC_USDT',
    where: '/summary BTC_USDT',
    last: '1',
    baseVolume,
    quoteVolume: '1',
  };
  const fetched = {
    path: '/trades/btc_usdt',
    url: '',
    status: 200,
    elapsedMs: 1,
    receivedAtMs: atMs,
    headers: {},
    bodyBytes: 1,
  };
  const book = {
    market: 'BTC_USDT',
    where: '/orderbook/btc_usdt',
    timestampMs: bookTime,
    bids: [],
    asks: [],
  };
  return {
    startedAtMs: atMs,
    listsAtMs: atMs,
    fetched: [],
    findings: [],
    figures: new Map([['BTC_USDT', figures]]),
    sampled: [{ market: 'BTC_USDT', pathName: 'btc_usdt' }],
    trades: new Map([['BTC_USDT', { trades, fetched }]]),
    books: new Map([['BTC_USDT', { book, fetched }]]),
    volumeRounds: new Map(),
  };
}

const trade = (id: string, timeMs: number, baseVolume = '1'): TradeView => ({
  where: id,
  id,
  baseVolume,
  timeMs,
});

describe('checkPollsConsistent', () => {
  it('accepts a volume that fell by exactly the trades that left the window', () => {
    const first = poll(
      NOW,
      '3',
      [trade('1', NOW - DAY_MS + 30_000), trade('2', NOW - 1000, '2')],
      NOW - 1000,
    );
    const second = poll(NOW + 60_000, '2', [trade('2', NOW - 1000, '2')], NOW - 1000);
    expect(checkPollsConsistent(first, second)).toEqual([]);
  });

  it('fails a volume drop without aged-out trades, a lost trade and a book going back', () => {
    const first = poll(NOW, '3', [trade('1', NOW - 5000), trade('2', NOW - 1000, '2')], NOW - 1000);
    const second = poll(NOW + 60_000, '2', [trade('2', NOW - 1000, '2')], NOW - 9000);
    expect(checkPollsConsistent(first, second).map((finding) => finding.where)).toEqual([
      '/summary BTC_USDT base volume',
      '/trades/btc_usdt',
      '/orderbook/btc_usdt.timestamp',
    ]);
  });

  it('only warns about a market listed or delisted between polls', () => {
    const first = poll(NOW, '1', [], NOW);
    const second = { ...poll(NOW + 60_000, '1', [], NOW), figures: new Map() };
    expect(checkPollsConsistent(first, second)).toEqual([
      expect.objectContaining({ severity: 'warn', detail: 'listed in the first poll, gone in the second' }),
    ]);
  });
});
