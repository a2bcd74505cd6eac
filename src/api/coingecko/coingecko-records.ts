import { JsonNumber } from '../../market/json-number';
import { MarketSummary, TradedSummary } from '../../market/market-summary';
import { BookSides } from '../views/book-sides';
import { TradeFigures } from '../views/trade-figures';
import { WireRecord } from '../schema/wire-parts';
import {
  CoingeckoOrderBookRecord,
  CoingeckoPairRecord,
  CoingeckoTickerRecord,
  CoingeckoTrade,
} from './coingecko-schemas';

/**
 * CoinGecko's spot records ("Integration Ideal API Endpoints"): the quote asset is the `target`,
 * decimals are strings in plain notation at the market's scales, times Unix milliseconds as JSON
 * integers, tickers written `BASE_QUOTE`.
 */

export function tickerId(summary: Pick<MarketSummary, 'base' | 'quote'>): string {
  return `${summary.base}_${summary.quote}`;
}

export function coingeckoPairRecord(summary: MarketSummary): CoingeckoPairRecord {
  return { ticker_id: tickerId(summary), base: summary.base, target: summary.quote };
}

export function coingeckoTickerRecord(summary: TradedSummary): CoingeckoTickerRecord {
  return {
    ticker_id: tickerId(summary),
    base_currency: summary.base,
    target_currency: summary.quote,
    last_price: summary.lastTraded,
    base_volume: summary.baseVolume,
    target_volume: summary.quoteVolume,
    bid: summary.highestBid,
    ask: summary.lowestAsk,
    high: summary.high,
    low: summary.low,
  };
}

export function coingeckoOrderBookRecord(
  tickerId: string,
  updatedAt: number,
  sides: BookSides,
): CoingeckoOrderBookRecord {
  return { ticker_id: tickerId, timestamp: updatedAt, bids: sides.bids, asks: sides.asks };
}

/** `trade_id` is the exchange's integer trade id, written as a JSON integer with every digit. */
export function coingeckoTradeRecord(trade: TradeFigures): WireRecord<typeof CoingeckoTrade> {
  return {
    trade_id: new JsonNumber(trade.id),
    price: trade.price,
    base_volume: trade.baseVolume,
    target_volume: trade.quoteVolume,
    trade_timestamp: trade.time,
    type: trade.side,
  };
}
