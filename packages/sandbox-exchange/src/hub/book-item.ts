import { LevelView } from '../engine/matching-engine';
import { Side } from '../engine/side';
import { jsonNumber, JsonNumber, toJson } from '../http/json-number';
import { BookDelta } from '../simulation/book-delta';
import { MarketSimulator } from '../simulation/market-simulator';

type Level = Pick<LevelView, 'amount' | 'price'>;

interface BookEntry {
  readonly amount: JsonNumber;
  readonly price: JsonNumber;
}

/** An item of the `Book` stream, the exchange's `OrderBookInfo`. */
interface BookItem {
  readonly instrument: string;
  readonly bids: readonly BookEntry[];
  readonly asks: readonly BookEntry[];
  readonly version: number;
  readonly askTotalAmount: JsonNumber;
  readonly bidTotalAmount: JsonNumber;
  readonly snapshot: boolean;
}

/** The whole book as the stream's first item; both sides ascending by price, as the exchange sends them. */
export function bookSnapshotItem(market: MarketSimulator): string {
  return toJson(
    bookItem(market, {
      bids: [...market.engine.levels(Side.Buy)].reverse(),
      asks: [...market.engine.levels(Side.Sell)],
      version: market.version,
      snapshot: true,
    }),
  );
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
  return toJson(
    bookItem(market, {
      bids: ascending(Side.Buy),
      asks: ascending(Side.Sell),
      version: delta.version,
      snapshot: false,
    }),
  );
}

function bookItem(
  market: MarketSimulator,
  content: { bids: readonly Level[]; asks: readonly Level[]; version: number; snapshot: boolean },
): BookItem {
  const { priceScale, amountScale } = market.spec;
  const entry = ({ amount, price }: Level): BookEntry => ({
    amount: jsonNumber(amount, amountScale),
    price: jsonNumber(price, priceScale),
  });
  return {
    instrument: market.instrument,
    bids: content.bids.map(entry),
    asks: content.asks.map(entry),
    version: content.version,
    askTotalAmount: jsonNumber(market.engine.totalAmount(Side.Sell), amountScale),
    bidTotalAmount: jsonNumber(market.engine.totalAmount(Side.Buy), amountScale),
    snapshot: content.snapshot,
  };
}
