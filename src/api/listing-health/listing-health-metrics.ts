import { Gauge, Registry } from 'prom-client';
import { LISTING_FLAG_CODES } from '../../market/listing-health/listing-flag';
import { HealthReport, MarketHealth } from '../../market/listing-health/health-figures';

/**
 * Gauges of the listing health, computed when Prometheus scrapes. Per market: the spread and the
 * ±2 % depths in dollars (absent where the figure is null) and how many flags it has; per flag: how
 * many markets have it, so that an alert needs no per-market rule.
 */
export class ListingHealthMetrics {
  /** One report per scrape: prom-client collects every gauge at once. */
  private pending?: Promise<HealthReport | undefined>;

  constructor(
    registry: Registry,
    private readonly report: () => Promise<HealthReport | undefined>,
  ) {
    const markets = async () => (await this.scraped())?.markets ?? [];
    const gauge = (
      name: string,
      help: string,
      labelNames: string[],
      fill: (gauge: Gauge, markets: readonly MarketHealth[]) => void,
    ) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          const current = await markets();
          this.reset();
          fill(this, current);
        },
      });
    gauge(
      'mdg_listing_spread_percent',
      "Each listed market's spread in percent of the mid, as /listing-health publishes it.",
      ['market'],
      (spread, current) => {
        for (const { instrument, spreadPercentage } of current)
          if (spreadPercentage !== null) spread.set({ market: instrument }, Number(spreadPercentage));
      },
    );
    gauge(
      'mdg_listing_depth_usd',
      "Each listed market's resting value within 2 % of the mid in US dollars, by side (plus: asks, minus: bids).",
      ['market', 'side'],
      (depth, current) => {
        for (const { instrument, usd } of current) {
          if (usd.depthPlus2Percent !== null)
            depth.set({ market: instrument, side: 'plus' }, Number(usd.depthPlus2Percent));
          if (usd.depthMinus2Percent !== null)
            depth.set({ market: instrument, side: 'minus' }, Number(usd.depthMinus2Percent));
        }
      },
    );
    gauge(
      'mdg_listing_market_flags',
      'Listing-health flags of each listed market.',
      ['market'],
      (flags, current) => {
        for (const { instrument, flags: raised } of current) flags.set({ market: instrument }, raised.length);
      },
    );
    gauge(
      'mdg_listing_flagged_markets',
      'Listed markets with each listing-health flag.',
      ['flag'],
      (flagged, current) => {
        for (const code of LISTING_FLAG_CODES)
          flagged.set(
            { flag: code },
            current.filter((health) => health.flags.some((flag) => flag.code === code)).length,
          );
      },
    );
  }

  private scraped(): Promise<HealthReport | undefined> {
    this.pending ??= this.report().finally(() => (this.pending = undefined));
    return this.pending;
  }
}
