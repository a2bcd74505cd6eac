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
 * Finds the gateway instrument of a market: the one whose product symbols are the market's base and
 * quote (any case); failing that, the one whose symbol is base and quote run together (`BTCUSDT`,
 * also with `_`, `-` or `/` between). Among several, the lowest instrument id, so the choice is
 * stable. Indexed once, so that joining thousands of markets takes one look-up each.
 */
class InstrumentIndex {
  private readonly byProducts = new Map<string, GatewayInstrument>();
  private readonly bySymbol = new Map<string, GatewayInstrument>();

  constructor(instruments: readonly GatewayInstrument[]) {
    for (const instrument of instruments) {
      keepLowestId(this.byProducts, pairKey(instrument.baseSymbol, instrument.quoteSymbol), instrument);
      keepLowestId(this.bySymbol, upper(instrument.symbol).replace(SEPARATORS, ''), instrument);
    }
  }

  find(market: MarketInfo): GatewayInstrument | undefined {
    return (
      this.byProducts.get(pairKey(market.baseAsset, market.quoteAsset)) ??
      this.bySymbol.get(upper(market.baseAsset) + upper(market.quoteAsset))
    );
  }
}

/** Base and quote kept apart (`AB` and `C` is not `A` and `BC`) by a character no symbol has. */
function pairKey(base: string, quote: string): string {
  return `${upper(base)}\u0000${upper(quote)}`;
}

function keepLowestId(
  index: Map<string, GatewayInstrument>,
  key: string,
  instrument: GatewayInstrument,
): void {
  const kept = index.get(key);
  if (kept === undefined || instrument.instrumentId < kept.instrumentId) index.set(key, instrument);
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
  const index = new InstrumentIndex(gatewayInstruments);
  for (const market of infoMarkets) {
    const instrument = `${market.baseAsset}_${market.quoteAsset}`.toLowerCase();
    if (markets.has(instrument)) continue;
    const joined: { -readonly [K in keyof MarketInfo]: MarketInfo[K] } = { ...market, instrument };
    delete joined.gateway;
    const match = index.find(market);
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

/**
 * `catalog` with the gateway ids `earlier` gave each of its markets that has none: for a refresh
 * that could not read the gateway's instruments and has no records of its own to fall back on.
 */
export function withEarlierGatewayIds(catalog: MarketCatalog, earlier: MarketCatalog): MarketCatalog {
  const ids = new Map(earlier.markets.map((market) => [market.instrument, market.gateway]));
  return {
    ...catalog,
    markets: catalog.markets.map((market) => {
      const gateway = market.gateway ?? ids.get(market.instrument);
      return gateway === market.gateway ? market : { ...market, gateway };
    }),
  };
}
