/** Trading state of a market as the exchange reports it in `/frontoffice/api/info`. */
export type MarketStatus = 'Open' | 'Halted' | 'Paused';

export type MarketSideMode = 'BuySell' | 'Buy' | 'Sell';

/** One sandbox market: the fields of the exchange's market record plus what the simulation needs. */
export interface SandboxMarketSpec {
  /** `{base}_{quote}`, lower case. */
  readonly instrument: string;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  /** The gateway's numeric id of the market. */
  readonly instrumentId: number;
  readonly priceScale: number;
  readonly amountScale: number;
  readonly minAmount: string;
  readonly priceDeviation: string;
  readonly hidden: 0 | 1;
  readonly makerFee: string;
  readonly takerFee: string;
  readonly status: MarketStatus;
  readonly side: MarketSideMode;
  readonly isCustom: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Mid price the random walk starts from. */
  readonly initialPrice: string;
  /** Size around which synthetic orders are drawn. */
  readonly typicalAmount: string;
}
