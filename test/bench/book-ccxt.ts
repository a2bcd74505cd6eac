import { dirname, join } from 'node:path';

/** One side of ccxt's price-level book: `store(price, amount)` sets a level's absolute amount, 0 removes it. */
export interface CcxtBookSide {
  readonly length: number;
  [index: number]: [number, number];
  store(price: number, amount: number): void;
}

export interface CcxtOrderBook {
  readonly bids: CcxtBookSide;
  readonly asks: CcxtBookSide;
}

type CcxtOrderBookClass = new (snapshot: {
  bids: [number, number][];
  asks: [number, number][];
}) => CcxtOrderBook;

/**
 * ccxt's `OrderBook`, the book its websocket clients keep for exchanges that send absolute amounts per
 * price level (its `handleDelta` calls `bookside.store(price, amount)` with floats), which is what the
 * exchange's feeds send. Its `CountedOrderBook` needs order counts and its `IndexedOrderBook` order ids,
 * which these feeds do not carry. The package exports only its bundle, so the class is loaded from the
 * CommonJS build beside it.
 */
export function loadCcxtOrderBook(): CcxtOrderBookClass {
  const bundle = require.resolve('ccxt');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module = require(join(dirname(bundle), 'cjs/src/base/ws/OrderBook.js')) as {
    OrderBook: CcxtOrderBookClass;
  };
  return module.OrderBook;
}
