import { AssetInfo } from '../../market/market-info';
import { JsonNumber } from '../../market/json-number';
import { MarketSummary } from '../../market/market-summary';
import { BookSides } from '../views/book-sides';
import { TradeFigures } from '../views/trade-figures';

/**
 * CoinMarketCap's spot records ("Ideal API Endpoint Samples"): decimals are strings in plain notation
 * at the market's scales, times Unix milliseconds as JSON integers, pairs written `BASE_QUOTE`.
 */

export function cmcPair(summary: MarketSummary): string {
  return `${summary.base}_${summary.quote}`;
}

export function cmcSummaryRecord(summary: MarketSummary) {
  return {
    trading_pairs: cmcPair(summary),
    base_currency: summary.base,
    quote_currency: summary.quote,
    last_price: summary.last,
    lowest_ask: summary.lowestAsk,
    highest_bid: summary.highestBid,
    base_volume: summary.baseVolume,
    quote_volume: summary.quoteVolume,
    price_change_percent_24h: summary.percentChange,
    highest_price_24h: summary.high,
    lowest_price_24h: summary.low,
  };
}

/** Fees are per market on this exchange, not per asset, so `maker_fee` and `taker_fee` are left out. */
export function cmcAssetRecord(asset: AssetInfo) {
  return {
    name: asset.name,
    can_withdraw: asset.canWithdraw,
    can_deposit: asset.canDeposit,
    min_withdraw: asset.minWithdraw,
    max_withdraw: asset.maxWithdraw,
  };
}

/** `isFrozen` is the integer CoinMarketCap's table names: 1 for a halted or paused market, else 0. */
export function cmcTickerRecord(summary: MarketSummary) {
  return {
    last_price: summary.last,
    base_volume: summary.baseVolume,
    quote_volume: summary.quoteVolume,
    isFrozen: summary.isFrozen ? 1 : 0,
  };
}

export function cmcOrderBookRecord(updatedAt: number, sides: BookSides) {
  return { timestamp: updatedAt, bids: sides.bids, asks: sides.asks };
}

/** `trade_id` is the exchange's integer trade id, written as a JSON integer with every digit. */
export function cmcTradeRecord(trade: TradeFigures) {
  return {
    trade_id: new JsonNumber(trade.id),
    price: trade.price,
    base_volume: trade.baseVolume,
    quote_volume: trade.quoteVolume,
    timestamp: trade.time,
    type: trade.side,
  };
}
