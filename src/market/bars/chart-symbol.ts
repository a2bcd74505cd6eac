import { MarketInfo } from '../market-info';

/**
 * TradingView's name of each market: `<BASE><QUOTE>` in upper case, only `[A-Z0-9._]`; where two
 * markets would share a name (`AB`+`CD`, `ABC`+`D`), each of them is `<BASE>_<QUOTE>` instead.
 */
export function chartSymbols(markets: readonly MarketInfo[]): Map<string, string> {
  const plain = (market: MarketInfo): string => `${clean(market.baseAsset)}${clean(market.quoteAsset)}`;
  const counts = new Map<string, number>();
  for (const market of markets) counts.set(plain(market), (counts.get(plain(market)) ?? 0) + 1);
  const symbols = new Map<string, string>();
  for (const market of markets) {
    const name = plain(market);
    symbols.set(
      market.instrument,
      counts.get(name) === 1 ? name : `${clean(market.baseAsset)}_${clean(market.quoteAsset)}`,
    );
  }
  return symbols;
}

function clean(asset: string): string {
  return asset.toUpperCase().replace(/[^A-Z0-9.]/g, '');
}
