import { LevelUpdate, PriceLevel } from '../../src/market/book-update';
import { MarketCatalog } from '../../src/market/market-info';
import { EMPTY_STATS } from '../../src/market/market-stats';
import { Trade } from '../../src/market/trade';
import { InstrumentHead } from '../../src/store/state-store';
import { market } from '../../src/store/testing/state-store-contract';

/**
 * The state of one market for the memory benchmark, the same in Redis and in the processes:
 * `depth` levels per side at 2-decimal prices with 8-decimal amounts, and `tradeCount` trades one
 * second apart ending now (86,400 is a day at one trade per second), with realistic text lengths.
 */
export interface MarketState {
  readonly instrument: string;
  readonly bids: PriceLevel[];
  readonly asks: PriceLevel[];
  readonly trades: Trade[];
}

export function instrumentName(index: number): string {
  return `m${String(index).padStart(5, '0')}_usdt`;
}

export function marketState(index: number, depth: number, tradeCount: number, now: number): MarketState {
  const instrument = instrumentName(index);
  const mid = 50_000_00 + index * 100; // cents
  const amount = (i: number): string =>
    `${(i % 97) + 1}.${String((i * 7919) % 100_000_000).padStart(8, '0')}`;
  const price = (cents: number): string =>
    `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
  const bids: PriceLevel[] = [];
  const asks: PriceLevel[] = [];
  for (let i = 0; i < depth; i++) {
    bids.push([price(mid - 1 - i), amount(i)]);
    asks.push([price(mid + 1 + i), amount(i + depth)]);
  }
  const trades: Trade[] = [];
  for (let i = 0; i < tradeCount; i++) {
    trades.push({
      id: String(10_000_000_000 + index * 1_000_000 + i),
      instrument,
      price: price(mid - 50 + ((i * 31) % 100)),
      amount: amount(i).replace(/0+$/, ''),
      side: i % 2 === 0 ? 'buy' : 'sell',
      time: now - (tradeCount - i) * 1000 + 500,
    });
  }
  return { instrument, bids, asks, trades };
}

export function levelUpdates(state: MarketState): LevelUpdate[] {
  return [
    ...state.bids.map(([price, amount]): LevelUpdate => ({ side: 'bid', price, amount })),
    ...state.asks.map(([price, amount]): LevelUpdate => ({ side: 'ask', price, amount })),
  ];
}

export function marketHead(state: MarketState, now: number): InstrumentHead {
  return {
    instrument: state.instrument,
    bookVersion: 1,
    bookUpdatedAt: now,
    syncState: 'live',
    bestBid: state.bids[0],
    bestAsk: state.asks[0],
    stats: { ...EMPTY_STATS, tradeCount: state.trades.length },
    tradesRevision: 1,
    tradeFeed: 'live',
    lastEventAt: now,
    confirmedAt: now,
  };
}

/** A catalogue listing the first `markets` markets, at the scales of `marketState`. */
export function marketCatalog(markets: number, now: number): MarketCatalog {
  return {
    markets: Array.from({ length: markets }, (_, index) =>
      market(instrumentName(index), {
        quoteAsset: 'usdt',
        baseAsset: instrumentName(index).split('_')[0],
        updatedAt: '2024-01-01T00:00:00Z',
      }),
    ),
    assets: [],
    refreshedAt: now,
  };
}
