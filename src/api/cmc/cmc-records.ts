import { AssetInfo } from '../../market/market-info';
import { JsonNumber } from '../../market/json-number';
import { MarketSummary, TradedSummary } from '../../market/market-summary';
import { BookSides } from '../views/book-sides';
import { TradeFigures } from '../views/trade-figures';
import { withoutUnknown } from '../views/without-unknown';
import { WireRecord } from '../schema/wire-parts';
import { CmcAsset, CmcOrderBookRecord, CmcSummaryRecord, CmcTickerRecord, CmcTrade } from './cmc-schemas';

/**
 * CoinMarketCap's spot records ("Ideal API Endpoint Samples"): decimals are strings in plain notation
 * at the market's scales, times Unix milliseconds as JSON integers, pairs written `BASE_QUOTE`.
 */

export function cmcPair(summary: Pick<MarketSummary, 'base' | 'quote'>): string {
  return `${summary.base}_${summary.quote}`;
}

export function cmcSummaryRecord(summary: TradedSummary): CmcSummaryRecord {
  return {
    trading_pairs: cmcPair(summary),
    base_currency: summary.base,
    quote_currency: summary.quote,
    last_price: summary.lastTraded,
    lowest_ask: summary.lowestAsk,
    highest_bid: summary.highestBid,
    base_volume: summary.baseVolume,
    quote_volume: summary.quoteVolume,
    price_change_percent_24h: summary.percentChange,
    highest_price_24h: summary.high,
    lowest_price_24h: summary.low,
  };
}

/**
 * Only what the assets file states: the UCID, the withdraw and deposit terms, and the fees (fractions,
 * 0.001 for 0.1 %), which the file states per asset; the exchange's own fees are per market.
 */
export function cmcAssetRecord(asset: AssetInfo): WireRecord<typeof CmcAsset> {
  return {
    name: asset.name,
    ...withoutUnknown({
      unified_cryptoasset_id: asset.unifiedCryptoassetId,
      can_withdraw: asset.canWithdraw,
      can_deposit: asset.canDeposit,
      min_withdraw: asset.minWithdraw,
      max_withdraw: asset.maxWithdraw,
      maker_fee: asset.makerFee,
      taker_fee: asset.takerFee,
    }),
  };
}

/**
 * `base_id`/`quote_id` are the UCIDs of the base and quote assets, left out when unknown.
 * `isFrozen` is the integer CoinMarketCap's table names: 1 for a halted or paused market, else 0.
 */
export function cmcTickerRecord(summary: TradedSummary, baseId?: number, quoteId?: number): CmcTickerRecord {
  return {
    ...withoutUnknown({ base_id: baseId, quote_id: quoteId }),
    last_price: summary.lastTraded,
    base_volume: summary.baseVolume,
    quote_volume: summary.quoteVolume,
    isFrozen: summary.isFrozen ? 1 : 0,
  };
}

export function cmcOrderBookRecord(updatedAt: number, sides: BookSides): CmcOrderBookRecord {
  return { timestamp: updatedAt, bids: sides.bids, asks: sides.asks };
}

/** `trade_id` is the exchange's integer trade id, written as a JSON integer with every digit. */
export function cmcTradeRecord(trade: TradeFigures): WireRecord<typeof CmcTrade> {
  return {
    trade_id: new JsonNumber(trade.id),
    price: trade.price,
    base_volume: trade.baseVolume,
    quote_volume: trade.quoteVolume,
    timestamp: trade.time,
    type: trade.side,
  };
}
