import { Side } from '../../engine/side';
import { defaultMarkets } from '../../market/default-markets';
import { BookDelta } from '../../simulation/book-delta';
import { MarketSimulator } from '../../simulation/market-simulator';

function counter(start: number) {
  let value = start;
  return { next: () => ++value };
}

export interface MarketFixture {
  readonly market: MarketSimulator;
  /** Every delta the market emitted, in order. */
  readonly deltas: BookDelta[];
  /** Places a good-till-cancelled limit order at `now`. */
  limit(accountId: number, side: Side, price: bigint, amount: bigint, now: number): number;
}

/**
 * An empty built-in market without synthetic participants (by default btc_usdt: price scale 2,
 * amount scale 8), for unit tests of what the gateway writes about a market. Ids count up from
 * `firstIds` (order 1, trade 101 by default).
 */
export function emptyMarket(index = 0, firstIds: { order?: number; trade?: number } = {}): MarketFixture {
  const market = new MarketSimulator(defaultMarkets()[index], {
    seed: 1,
    restingOrders: 0,
    tradeRetentionMs: 26 * 3_600_000,
    orderIds: counter((firstIds.order ?? 1) - 1),
    tradeIds: counter((firstIds.trade ?? 101) - 1),
  });
  const deltas: BookDelta[] = [];
  market.deltas.subscribe((delta) => deltas.push(delta));
  return {
    market,
    deltas,
    limit: (accountId, side, price, amount, now) =>
      market.execute({ accountId, side, type: 'limit', price, amount, timeInForce: 'gtc' }, now).order.id,
  };
}
