import type { GatewayInstrument, GatewayProduct } from './gateway-records';
import { AssetInfo, MarketCatalog, MarketInfo } from './market-info';

/** What the assets file says about one asset; anything it leaves out is not published. */
export type AssetOverride = Partial<Omit<AssetInfo, 'symbol'>>;

const STATED_FIELDS = [
  'unifiedCryptoassetId',
  'canWithdraw',
  'canDeposit',
  'minWithdraw',
  'maxWithdraw',
  'makerFee',
  'takerFee',
] as const;

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
 * comes from the assets file, else the gateway product's full name, else the symbol; everything else
 * (CoinMarketCap's id, withdraw and deposit terms, fees) only from the assets file, and is absent
 * when the file does not state it. Entries of the assets file for assets no market trades are not
 * listed.
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
    const stated = STATED_FIELDS.filter((field) => override[field] !== undefined).map((field) => [
      field,
      override[field],
    ]);
    return { symbol, name: override.name ?? names.get(symbol) ?? symbol, ...Object.fromEntries(stated) };
  });

  const sorted = [...markets.keys()].sort().map((instrument) => markets.get(instrument)!);
  return { markets: sorted, assets, refreshedAt: now };
}
