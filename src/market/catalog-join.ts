import type { GatewayInstrument, GatewayProduct } from '../upstream/gateway/gateway-records';
import { AssetInfo, MarketCatalog, MarketInfo } from './market-info';

/** What the assets file says about one asset; anything left out takes the value of ASSET_DEFAULTS. */
export interface AssetOverride {
  readonly name?: string;
  readonly canWithdraw?: boolean;
  readonly canDeposit?: boolean;
  readonly minWithdraw?: string;
  readonly maxWithdraw?: string;
}

/**
 * Withdraw and deposit terms of an asset the assets file does not describe. The exchange's market
 * data carries none, and a listed asset is normally movable both ways; "0" means that no limit is
 * published.
 */
export const ASSET_DEFAULTS = {
  canWithdraw: true,
  canDeposit: true,
  minWithdraw: '0',
  maxWithdraw: '0',
} as const;

const SEPARATORS = /[-_/]/g;

function upper(symbol: string): string {
  return symbol.toUpperCase();
}

/**
 * The gateway instrument of a market: the one whose product symbols are the market's base and quote
 * (any case); failing that, the one whose symbol is base and quote run together (`BTCUSDT`, also
 * with `_`, `-` or `/` between). Among several, the lowest instrument id, so the choice is stable.
 */
function findInstrument(
  market: MarketInfo,
  instruments: readonly GatewayInstrument[],
): GatewayInstrument | undefined {
  const base = upper(market.baseAsset);
  const quote = upper(market.quoteAsset);
  const lowestId = (candidates: GatewayInstrument[]) =>
    candidates.sort((a, b) => a.instrumentId - b.instrumentId)[0] as GatewayInstrument | undefined;
  const byProducts = instruments.filter(
    (instrument) => upper(instrument.baseSymbol) === base && upper(instrument.quoteSymbol) === quote,
  );
  if (byProducts.length > 0) return lowestId(byProducts);
  return lowestId(
    instruments.filter((instrument) => upper(instrument.symbol).replace(SEPARATORS, '') === base + quote),
  );
}

function productNames(products: readonly GatewayProduct[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const product of [...products].sort((a, b) => a.productId - b.productId)) {
    const name = product.fullName?.trim();
    const symbol = upper(product.symbol);
    if (name && !names.has(symbol)) names.set(symbol, name);
  }
  return names;
}

/**
 * Builds the market catalogue from the exchange's market list, the gateway's instruments and
 * products, and the assets file.
 *
 * Markets are keyed by `base_quote` in lower case (a second market with the same key is dropped),
 * sorted by that key, and hidden ones are kept with `hidden: true`: what to list is the API's
 * decision. Each gets `gateway` when a gateway instrument matches it.
 *
 * Assets are every base and quote asset of those markets, by upper-case symbol, sorted. The name
 * comes from the assets file, else the gateway product's full name, else the symbol; withdraw and
 * deposit terms from the assets file, else ASSET_DEFAULTS. Entries of the assets file for assets no
 * market trades are not listed.
 *
 * @param overrides The assets file, keyed by upper-case symbol.
 * @param now Unix milliseconds of this refresh.
 */
export function joinCatalog(
  infoMarkets: readonly MarketInfo[],
  gatewayInstruments: readonly GatewayInstrument[],
  gatewayProducts: readonly GatewayProduct[],
  overrides: ReadonlyMap<string, AssetOverride>,
  now: number,
): MarketCatalog {
  const markets = new Map<string, MarketInfo>();
  for (const market of infoMarkets) {
    const instrument = `${market.baseAsset}_${market.quoteAsset}`.toLowerCase();
    if (markets.has(instrument)) continue;
    const joined: { -readonly [K in keyof MarketInfo]: MarketInfo[K] } = { ...market, instrument };
    delete joined.gateway;
    const match = findInstrument(market, gatewayInstruments);
    if (match) joined.gateway = { instrumentId: match.instrumentId, symbol: match.symbol };
    markets.set(instrument, joined);
  }

  const names = productNames(gatewayProducts);
  const symbols = new Set<string>();
  for (const market of markets.values()) {
    symbols.add(upper(market.baseAsset));
    symbols.add(upper(market.quoteAsset));
  }
  const assets: AssetInfo[] = [...symbols].sort().map((symbol) => {
    const override = overrides.get(symbol) ?? {};
    return {
      symbol,
      name: override.name ?? names.get(symbol) ?? symbol,
      canWithdraw: override.canWithdraw ?? ASSET_DEFAULTS.canWithdraw,
      canDeposit: override.canDeposit ?? ASSET_DEFAULTS.canDeposit,
      minWithdraw: override.minWithdraw ?? ASSET_DEFAULTS.minWithdraw,
      maxWithdraw: override.maxWithdraw ?? ASSET_DEFAULTS.maxWithdraw,
    };
  });

  const sorted = [...markets.keys()].sort().map((instrument) => markets.get(instrument)!);
  return { markets: sorted, assets, refreshedAt: now };
}
