import { AssetInfo } from '../../market/market-info';
import { MarketSummary } from '../../market/market-summary';
import { BookSides } from '../views/book-sides';
import { ListedMarket } from '../views/listing-service';
import { TradeFigures } from '../views/trade-figures';
import { withoutUnknown } from '../views/without-unknown';
import {
  ListingAssetRecord,
  ListingOrderBookRecord,
  ListingSummaryRecord,
  ListingTickerRecord,
  ListingTradeRecord,
} from './listing-schemas';

/** The exchange's own aggregator records (spec 2.8): every value a string unless stated. */

/** The name, and of the withdraw and deposit terms only those the assets file states. */
export function assetRecord(asset: AssetInfo): ListingAssetRecord {
  return {
    name: asset.name,
    ...withoutUnknown({
      can_withdraw: asset.canWithdraw,
      can_deposit: asset.canDeposit,
      min_withdraw: asset.minWithdraw,
      max_withdraw: asset.maxWithdraw,
    }),
  };
}

export function summaryRecord({ id, summary }: ListedMarket): ListingSummaryRecord {
  return {
    id,
    last: summary.last,
    lowestAsk: summary.lowestAsk,
    highestBid: summary.highestBid,
    percentChange: summary.percentChange,
    baseVolume: summary.baseVolume,
    quoteVolume: summary.quoteVolume,
    isFrozen: summary.isFrozen ? '1' : '0',
    high24hr: summary.high,
    low24hr: summary.low,
  };
}

export function tickerRecord(
  summary: MarketSummary,
  baseName: string,
  quoteName: string,
): ListingTickerRecord {
  return {
    base_name: baseName,
    quote_name: quoteName,
    last_price: summary.last,
    base_volume: summary.baseVolume,
    quote_volume: summary.quoteVolume,
    isFrozen: summary.isFrozen ? '1' : '0',
  };
}

export function orderBookRecord(updatedAt: number, sides: BookSides): ListingOrderBookRecord {
  return { timestamp: String(updatedAt), bids: sides.bids, asks: sides.asks };
}

export function tradeRecord(trade: TradeFigures): ListingTradeRecord {
  return {
    tradeID: trade.id,
    price: trade.price,
    base_volume: trade.baseVolume,
    quote_volume: trade.quoteVolume,
    trade_timestamp: String(trade.time),
    type: trade.side,
  };
}
