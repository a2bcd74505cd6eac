import { ExactRatio } from '../exact-ratio';
import { isFrozen } from '../market-info';
import { ListingFlag } from './listing-flag';
import { ListingThresholds } from './listing-thresholds';
import type { MarketHealth, MarketHealthInput } from './health-figures';

/** The flags judge the figures as published (rounded), so that a flag never contradicts them. */
export function listingFlags(
  input: MarketHealthInput,
  health: Omit<MarketHealth, 'flags'>,
  thresholds: ListingThresholds,
): ListingFlag[] {
  const flags: ListingFlag[] = [];
  const { liquidity } = input;
  if (liquidity.crossed) {
    flags.push({
      code: 'crossed_book',
      message: `the best bid ${health.bestBid} is at or above the best ask ${health.bestAsk}: aggregators take a crossed book for bad data`,
    });
  }
  const missing = [
    liquidity.bestBid === undefined && 'bids',
    liquidity.bestAsk === undefined && 'asks',
  ].filter(Boolean);
  if (missing.length > 0) {
    flags.push({
      code: 'empty_side',
      message: `the book has no ${missing.join(' and no ')}: no spread or depth can be measured`,
    });
  }
  if (
    health.spreadPercentage !== null &&
    ExactRatio.of(health.spreadPercentage).compare(thresholds.maxSpreadPercent) > 0
  ) {
    flags.push({
      code: 'wide_spread',
      message: `the spread is ${health.spreadPercentage} % of the mid, over ${plain(thresholds.maxSpreadPercent)} %`,
    });
  }
  const thin = [
    ['+2 %', health.usd.depthPlus2Percent],
    ['-2 %', health.usd.depthMinus2Percent],
  ].filter(([, dollars]) => dollars !== null && ExactRatio.of(dollars).compare(thresholds.minDepthUsd) < 0);
  if (thin.length > 0) {
    flags.push({
      code: 'thin_depth',
      message: `${thin.map(([band, dollars]) => `the ${band} depth is ${dollars} USD`).join(' and ')}, under ${plain(thresholds.minDepthUsd)} USD`,
    });
  }
  if (health.lastTradeAgeMs === null || health.lastTradeAgeMs > thresholds.staleTradesMs) {
    flags.push({
      code: 'stale_trades',
      message:
        health.lastTradeAgeMs === null
          ? 'no trade of the market is known'
          : `the last trade was ${duration(health.lastTradeAgeMs)} ago, over ${duration(thresholds.staleTradesMs)}`,
    });
  }
  if (health.bookAgeMs === null || health.bookAgeMs > thresholds.staleBookMs) {
    flags.push({
      code: 'stale_book',
      message:
        health.bookAgeMs === null
          ? 'the book has never been known current'
          : `the book was last known current ${duration(health.bookAgeMs)} ago, over ${duration(thresholds.staleBookMs)}`,
    });
  }
  if (isFrozen(input.market)) {
    flags.push({
      code: 'frozen',
      message: `the market is ${input.market.status}: the listings say isFrozen 1 and aggregators leave it out`,
    });
  }
  if (health.usd.reason !== null) flags.push({ code: 'no_usd_path', message: health.usd.reason });
  const volumeFlag = volumeWithoutDepth(input, thresholds.volumeToDepthRatio);
  if (volumeFlag) flags.push(volumeFlag);
  return flags;
}

/** Volume and depth are both in quote units: the ratio needs no dollar price. */
function volumeWithoutDepth(
  { stats, liquidity }: MarketHealthInput,
  limit: ExactRatio,
): ListingFlag | undefined {
  if (!liquidity.plusDepth || !liquidity.minusDepth) return undefined;
  const volume = ExactRatio.of(stats.quoteVolume);
  const depth = ExactRatio.of(liquidity.plusDepth.quote).plus(ExactRatio.of(liquidity.minusDepth.quote));
  if (volume.compare(depth.times(limit)) <= 0) return undefined;
  const volumeIs = depth.isZero
    ? 'has no ±2 % depth behind it'
    : `is ${volume.dividedBy(depth).toFixed(0)} times the ±2 % depth, over ${plain(limit)} times`;
  return {
    code: 'volume_without_depth',
    message: `the 24-hour volume ${volumeIs}: aggregators read that as wash trading`,
  };
}

function plain(value: ExactRatio): string {
  return value.toExactText(8);
}

/** A short human duration: seconds below two minutes, minutes below two hours, else hours. */
function duration(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1_000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}
