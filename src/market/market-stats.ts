/**
 * 24-hour statistics of a market over `now - 24h < time <= now`, exact canonical decimals.
 * Without trades in the window every value is "0".
 */
export interface MarketStats {
  readonly last: string;
  /** Price of the first trade in the window. */
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly baseVolume: string;
  /** Sum of price x amount over the trades of the window. */
  readonly quoteVolume: string;
  readonly tradeCount: number;
  /** `trades` when computed from every trade; `candles` when estimated from candles and level 1 (no trade feed). */
  readonly source: 'trades' | 'candles';
}

export const EMPTY_STATS: MarketStats = {
  last: '0',
  open: '0',
  high: '0',
  low: '0',
  baseVolume: '0',
  quoteVolume: '0',
  tradeCount: 0,
  source: 'trades',
};
