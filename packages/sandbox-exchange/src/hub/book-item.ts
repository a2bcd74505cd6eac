import { LevelView } from '../engine/matching-engine';
import { Side } from '../engine/side';
import { formatUnits } from '../engine/units';
import { BookDelta } from '../simulation/book-delta';
import { MarketSimulator } from '../simulation/market-simulator';

type Level = Pick<LevelView, 'amount' | 'price'>;

/** The whole book as the stream's first item; both sides ascending by price, as the exchange sends them. */
export function bookSnapshotItem(market: MarketSimulator): string {
  return bookItem(market, {
    bids: [...market.engine.levels(Side.Buy)].reverse(),
    asks: [...market.engine.levels(Side.Sell)],
    version: market.version,
    snapshot: true,
  });
}

/**
 * One book change: the levels it touched, ascending by price, amount 0 for a level that is gone;
 * the totals are the market's when the change is published.
 */
export function bookDeltaItem(market: MarketSimulator, delta: BookDelta): string {
  const ascending = (side: Side) =>
    delta.changes
      .filter((change) => change.side === side)
      .sort((a, b) => (a.price < b.price ? -1 : a.price > b.price ? 1 : 0));
  return bookItem(market, {
    bids: ascending(Side.Buy),
    asks: ascending(Side.Sell),
    version: delta.version,
    snapshot: false,
  });
}

/**
 * The JSON text of an item of the `Book` stream, the exchange's `OrderBookInfo`, with its prices and
 * amounts as bare numbers of exact digits. Written as text rather than through objects for
 * `JSON.stringify`: the hub sends thousands a second at a burst.
 */
function bookItem(
  market: MarketSimulator,
  content: { bids: readonly Level[]; asks: readonly Level[]; version: number; snapshot: boolean },
): string {
  const { priceScale, amountScale } = market.spec;
  const entries = (levels: readonly Level[]): string =>
    levels
      .map(
        ({ amount, price }) =>
          `{"amount":${formatUnits(amount, amountScale)},"price":${formatUnits(price, priceScale)}}`,
      )
      .join(',');
  const askTotal = formatUnits(market.engine.totalAmount(Side.Sell), amountScale);
  const bidTotal = formatUnits(market.engine.totalAmount(Side.Buy), amountScale);
  return (
    `{"instrument":${JSON.stringify(market.instrument)},"bids":[${entries(content.bids)}],` +
    `"asks":[${entries(content.asks)}],"version":${content.version},"askTotalAmount":${askTotal},` +
    `"bidTotalAmount":${bidTotal},"snapshot":${content.snapshot}}`
  );
}
