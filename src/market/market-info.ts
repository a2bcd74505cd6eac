/** A market as the exchange describes it, joined with its gateway identity. Decimals are canonical text. */
export interface MarketInfo {
  /** `{base}_{quote}`, lower case. */
  readonly instrument: string;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  readonly priceScale: number;
  readonly amountScale: number;
  readonly minAmount: string;
  readonly priceDeviation: string;
  readonly makerFee: string;
  readonly takerFee: string;
  readonly hidden: boolean;
  /** `Open`, `Halted` or `Paused` (normalized letter case); anything else is kept as sent. */
  readonly status: string;
  readonly side: string;
  readonly isCustom: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The gateway's id and symbol of the market, when the gateway lists it. */
  readonly gateway?: { readonly instrumentId: number; readonly symbol: string };
  /**
   * The market's entry in the exchange's market list exactly as sent (JSON text, every field, numbers
   * with their digits), which the REST mirror serves; absent when the list was not read over REST.
   */
  readonly exchangeRecord?: string;
}

/**
 * What aggregators are told about an asset. The exchange's market data carries none of the optional
 * fields: they come from the assets file and are absent when it does not state them.
 */
export interface AssetInfo {
  /** Upper case, e.g. `BTC`. */
  readonly symbol: string;
  readonly name: string;
  /** CoinMarketCap's Unified Cryptoasset ID. */
  readonly unifiedCryptoassetId?: number;
  readonly canWithdraw?: boolean;
  readonly canDeposit?: boolean;
  readonly minWithdraw?: string;
  /** "0" means no maximum. */
  readonly maxWithdraw?: string;
  /** Fees as fractions of the traded value (0.001 is 0.1 %), canonical decimal text. */
  readonly makerFee?: string;
  readonly takerFee?: string;
}

export interface MarketCatalog {
  readonly markets: readonly MarketInfo[];
  readonly assets: readonly AssetInfo[];
  /** Unix milliseconds of the last successful refresh. */
  readonly refreshedAt: number;
  /** The markets are the built-in sandbox exchange's, their prices simulated; absent for an exchange. */
  readonly sandbox?: true;
}

export function isFrozen(market: MarketInfo): boolean {
  return market.status === 'Halted' || market.status === 'Paused';
}
