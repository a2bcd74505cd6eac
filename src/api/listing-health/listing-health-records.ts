import { HealthReport, MarketHealth } from '../../market/listing-health/health-figures';
import { cmcPair } from '../cmc/cmc-records';
import { tickerId } from '../coingecko/coingecko-records';
import { ListingHealthRecord, ListingHealthMarketRecord } from './listing-health-schemas';
import { ListingHealthService } from './listing-health-service';

/** The body of `/listing-health`: the markets keyed as `/summary` keys them. */
export function listingHealthBody(report: HealthReport, service: ListingHealthService): ListingHealthRecord {
  const { thresholds } = service;
  return {
    generated_at: report.generatedAt,
    books_read_at: report.booksReadAt,
    thresholds: {
      usd_reference_assets: service.references,
      max_spread_percent: thresholds.maxSpreadPercent.toExactText(8),
      min_depth_usd: thresholds.minDepthUsd.toExactText(8),
      stale_trades_ms: thresholds.staleTradesMs,
      stale_book_ms: thresholds.staleBookMs,
      volume_depth_ratio: thresholds.volumeToDepthRatio.toExactText(8),
    },
    markets: Object.fromEntries(
      report.markets.map((health) => [health.instrument.toUpperCase(), marketHealthRecord(health)]),
    ),
  };
}

export function marketHealthRecord(health: MarketHealth): ListingHealthMarketRecord {
  return {
    instrument: health.instrument,
    base: health.base,
    quote: health.quote,
    orientation: {
      summary_key: health.instrument.toUpperCase(),
      ticker_key: health.instrument,
      cmc: { trading_pairs: cmcPair(health), base_currency: health.base, quote_currency: health.quote },
      coingecko: { ticker_id: tickerId(health), base_currency: health.base, target_currency: health.quote },
    },
    status: health.status,
    sync_state: health.syncState,
    book_version: health.bookVersion,
    best_bid: health.bestBid,
    best_ask: health.bestAsk,
    mid: health.mid,
    spread_percentage: health.spreadPercentage,
    depth_plus_2_percent_quote: health.depthPlus2PercentQuote,
    depth_minus_2_percent_quote: health.depthMinus2PercentQuote,
    depth_plus_2_percent_base: health.depthPlus2PercentBase,
    depth_minus_2_percent_base: health.depthMinus2PercentBase,
    usd: {
      quote_price_path: health.usd.quotePricePath,
      depth_plus_2_percent: health.usd.depthPlus2Percent,
      depth_minus_2_percent: health.usd.depthMinus2Percent,
      quote_volume_24h: health.usd.quoteVolume24h,
      reason: health.usd.reason,
    },
    last_trade_age_ms: health.lastTradeAgeMs,
    trades_24h: health.trades24h,
    base_volume_24h: health.baseVolume24h,
    quote_volume_24h: health.quoteVolume24h,
    book_age_ms: health.bookAgeMs,
    flags: health.flags,
  };
}
