import { formatFixed, toDecimal, toFixedScale } from '../../market/decimal';
import { MarketInfo } from '../../market/market-info';
import { TakerSide, Trade } from '../../market/trade';

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
 * Figures of the trades of one market, each computed once: a 24-hour list changes by a few trades at
 * a time, so rebuilding it reuses almost every row.
 */
export class TradeFiguresCache {
  private byId = new Map<string, TradeFigures>();

  constructor(private readonly market: MarketInfo) {}

  figures(trades: readonly Trade[]): TradeFigures[] {
    const next = new Map<string, TradeFigures>();
    const figures = trades.map((trade) => {
      const known = this.byId.get(trade.id) ?? tradeFigures(this.market, trade);
      next.set(trade.id, known);
      return known;
    });
    this.byId = next;
    return figures;
  }
}
