import { MarketInfo } from './market-info';

export interface KeptMarkets {
  readonly markets: readonly MarketInfo[];
  /** Instruments whose entry was malformed and whose previous record was kept. */
  readonly kept: readonly string[];
}

/**
 * The markets of the exchange's list, with each entry it sent malformed replaced by that market's
 * record from the previous list: the market still exists, only this copy of it is unreadable. A
 * market absent from the list is gone; a malformed one never read well before stays out.
 *
 * @param malformedKeys The keys of the malformed entries (`base_quote`, any case).
 */
export function withKeptMarkets(
  markets: readonly MarketInfo[],
  malformedKeys: readonly string[],
  previous: readonly MarketInfo[],
): KeptMarkets {
  const present = new Set(markets.map((market) => market.instrument));
  const previousByInstrument = new Map(previous.map((market) => [market.instrument, market]));
  const kept: MarketInfo[] = [];
  for (const key of malformedKeys) {
    const instrument = key.toLowerCase();
    const earlier = previousByInstrument.get(instrument);
    if (!earlier || present.has(instrument)) continue;
    present.add(instrument);
    kept.push(earlier);
  }
  return { markets: [...markets, ...kept], kept: kept.map((market) => market.instrument) };
}
