import { formatFixed, toDecimal, toFixedScale } from '../../market/decimal';
import { MarketInfo } from '../../market/market-info';
import { productAtScale, unitsAtScale } from '../../market/scaled-units';
import { TakerSide, Trade } from '../../market/trade';
import { TradeRows } from '../../market/trade-columns';

/** A trade in published form: price and quote amount at the price scale, base amount at the amount scale. */
export interface TradeFigures {
  readonly id: string;
  readonly price: string;
  readonly baseVolume: string;
  readonly quoteVolume: string;
  readonly time: number;
  readonly side: TakerSide;
}

export function tradeFigures(market: MarketInfo, trade: Trade): TradeFigures {
  return {
    id: trade.id,
    price: toFixedScale(trade.price, market.priceScale),
    baseVolume: toFixedScale(trade.amount, market.amountScale),
    quoteVolume: formatFixed(toDecimal(trade.price).times(trade.amount), market.priceScale),
    time: trade.time,
    side: trade.side,
  };
}

/**
 * The figures of every trade of `rows`, newest first, computed while a body is rendered rather than
 * held: from the units of the columns, with the same texts as `tradeFigures` gives.
 */
export function figuresNewestFirst(market: MarketInfo, rows: TradeRows): TradeFigures[] {
  const figures = new Array<TradeFigures>(rows.length);
  for (let position = rows.length - 1, at = 0; position >= 0; position--, at++)
    figures[at] = figuresAt(market, rows, position);
  return figures;
}

function figuresAt(market: MarketInfo, rows: TradeRows, position: number): TradeFigures {
  const price = rows.priceUnitsAt(position);
  const priceScale = rows.priceScaleAt(position);
  const amount = rows.amountUnitsAt(position);
  const amountScale = rows.amountScaleAt(position);
  const quoteVolume = productAtScale(price, priceScale, amount, amountScale, market.priceScale);
  // A decimal kept as text, or a product past what two limbs hold: the exact path.
  if (quoteVolume === undefined) return tradeFigures(market, rows.at(position));
  return {
    id: rows.idAt(position),
    price: unitsAtScale(price, priceScale, market.priceScale),
    baseVolume: unitsAtScale(amount, amountScale, market.amountScale),
    quoteVolume,
    time: rows.timeAt(position),
    side: rows.sideAt(position),
  };
}
