import { toFixedScale } from '../decimal';
import { ExactRatio } from '../exact-ratio';
import { MarketHealth, MarketHealthInput, UsdFigures } from './health-figures';
import { listingFlags } from './listing-flags';
import { ListingThresholds } from './listing-thresholds';

const DOLLAR_SCALE = 2;
const PERCENT_SCALE = 2;

export function marketHealth(input: MarketHealthInput, thresholds: ListingThresholds): MarketHealth {
  const { market, stats, liquidity } = input;
  const price = (value: string | undefined) =>
    value === undefined ? null : toFixedScale(value, market.priceScale);
  const amount = (value: string | undefined) =>
    value === undefined ? null : toFixedScale(value, market.amountScale);
  const usd = usdFigures(input);
  const health: Omit<MarketHealth, 'flags'> = {
    instrument: market.instrument,
    base: market.baseAsset.toUpperCase(),
    quote: market.quoteAsset.toUpperCase(),
    status: market.status,
    syncState: input.syncState ?? null,
    bookVersion: input.bookVersion ?? null,
    bestBid: price(liquidity.bestBid),
    bestAsk: price(liquidity.bestAsk),
    mid: liquidity.mid ? midText(liquidity.mid, market.priceScale) : null,
    spreadPercentage: liquidity.spreadPercent?.toFixed(PERCENT_SCALE) ?? null,
    depthPlus2PercentQuote: price(liquidity.plusDepth?.quote),
    depthMinus2PercentQuote: price(liquidity.minusDepth?.quote),
    depthPlus2PercentBase: amount(liquidity.plusDepth?.base),
    depthMinus2PercentBase: amount(liquidity.minusDepth?.base),
    usd,
    lastTradeAgeMs: input.lastTradeTime ? Math.max(0, input.now - input.lastTradeTime) : null,
    trades24h: stats.tradeCount,
    baseVolume24h: toFixedScale(stats.baseVolume, market.amountScale),
    quoteVolume24h: toFixedScale(stats.quoteVolume, market.priceScale),
    bookAgeMs: input.confirmedAt > 0 ? Math.max(0, input.now - input.confirmedAt) : null,
  };
  return { ...health, flags: listingFlags(input, health, thresholds) };
}

function usdFigures({ liquidity, stats, quoteUsd }: MarketHealthInput): UsdFigures {
  if (quoteUsd.price === undefined) {
    return {
      quotePricePath: null,
      depthPlus2Percent: null,
      depthMinus2Percent: null,
      quoteVolume24h: null,
      reason: quoteUsd.reason,
    };
  }
  const dollars = (quote: string | undefined) =>
    quote === undefined ? null : ExactRatio.of(quote).times(quoteUsd.price).toFixed(DOLLAR_SCALE);
  return {
    quotePricePath: quoteUsd.path,
    depthPlus2Percent: dollars(liquidity.plusDepth?.quote),
    depthMinus2Percent: dollars(liquidity.minusDepth?.quote),
    quoteVolume24h: dollars(stats.quoteVolume),
    reason: null,
  };
}

/** At the price scale, with the one more decimal that halving an odd last digit takes. */
function midText(mid: ExactRatio, priceScale: number): string {
  const atScale = mid.toFixed(priceScale);
  return ExactRatio.of(atScale).compare(mid) === 0 ? atScale : mid.toFixed(priceScale + 1);
}
