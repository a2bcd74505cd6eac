import { PriceLevel } from '../book-update';
import { ExactRatio } from '../exact-ratio';
import { ExactSum } from '../exact-sum';

/** The ±2 % band the aggregators measure a book's depth over, as a fraction of the mid. */
const BAND = ExactRatio.fraction(2n, 100n);
const HALF = ExactRatio.fraction(1n, 2n);
const HUNDRED = ExactRatio.of('100');

/** The resting amount within the band on one side: in base units, and its value in quote units. */
export interface BandDepth {
  /** Σ amount, exact canonical text. */
  readonly base: string;
  /** Σ price × amount, exact canonical text. */
  readonly quote: string;
}

/** What a book offers a trader, exactly, before any rounding to a market's scales. */
export interface BookLiquidity {
  readonly bestBid?: string;
  readonly bestAsk?: string;
  /** (best bid + best ask) / 2; absent with an empty side. */
  readonly mid?: ExactRatio;
  /** (best ask − best bid) / mid × 100; below zero for a crossed book. */
  readonly spreadPercent?: ExactRatio;
  /** Best bid at or above best ask. */
  readonly crossed: boolean;
  /** Asks priced at most mid × 1.02. */
  readonly plusDepth?: BandDepth;
  /** Bids priced at least mid × 0.98. */
  readonly minusDepth?: BandDepth;
}

/** Sides best level first, prices and amounts canonical decimal text. */
export function bookLiquidity(bids: readonly PriceLevel[], asks: readonly PriceLevel[]): BookLiquidity {
  const bestBid = bids[0]?.[0];
  const bestAsk = asks[0]?.[0];
  if (bestBid === undefined || bestAsk === undefined) return { bestBid, bestAsk, crossed: false };
  const bid = ExactRatio.of(bestBid);
  const ask = ExactRatio.of(bestAsk);
  const mid = bid.plus(ask).times(HALF);
  const band = mid.times(BAND);
  const ceiling = mid.plus(band);
  const floor = mid.minus(band);
  return {
    bestBid,
    bestAsk,
    mid,
    spreadPercent: ask.minus(bid).dividedBy(mid).times(HUNDRED),
    crossed: bid.compare(ask) >= 0,
    plusDepth: depthWhile(asks, (price) => price.compare(ceiling) <= 0),
    minusDepth: depthWhile(bids, (price) => price.compare(floor) >= 0),
  };
}

/** Sums the levels from the best one outwards while their price is within the band. */
function depthWhile(side: readonly PriceLevel[], within: (price: ExactRatio) => boolean): BandDepth {
  const base = new ExactSum();
  const quote = new ExactSum();
  for (const [price, amount] of side) {
    if (!within(ExactRatio.of(price))) break;
    base.add(amount);
    quote.addProduct(price, amount);
  }
  return { base: base.toText(), quote: quote.toText() };
}
