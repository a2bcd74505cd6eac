import { Finding } from './audit-finding';

/**
 * What the checks read from the endpoints, whatever the format: markets by their `BASE_QUOTE` name,
 * their 24-hour figures, books and trades. A value that is not a valid plain decimal is absent here
 * (the field checks report it), so the arithmetic checks see only values they can compute with.
 */

export interface MarketRef {
  /** Upper-case `BASE_QUOTE`, the same in every format. */
  readonly market: string;
  /** The market as this format writes it in a path or query. */
  readonly pathName: string;
}

export interface MarketFigures {
  readonly market: string;
  readonly where: string;
  /** Null when the endpoint says there is no last price. */
  readonly last?: string | null;
  readonly baseVolume?: string;
  readonly quoteVolume?: string;
}

export interface BookLevel {
  readonly price: string;
  readonly amount: string;
}

export interface BookView {
  readonly market: string;
  readonly where: string;
  readonly timestampMs?: number;
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

export interface TradeView {
  readonly where: string;
  readonly id: string;
  readonly price?: string;
  readonly baseVolume?: string;
  readonly quoteVolume?: string;
  readonly timeMs?: number;
}

/** A record's claim about which asset is the base and which the quote, to compare with its market name. */
export interface OrientationClaim {
  readonly where: string;
  /** The market name as written (`BTC_USDT`, `btc-usdt`). */
  readonly key: string;
  readonly base: unknown;
  readonly quote: unknown;
  /** Whether `base` and `quote` are asset names (compared through the asset list) rather than symbols. */
  readonly byName?: boolean;
}

export interface ListsRead {
  readonly findings: Finding[];
  /** The markets with 24-hour figures, which the audit samples books and trades of. */
  readonly markets: MarketRef[];
  readonly figures: ReadonlyMap<string, MarketFigures>;
}

export interface Read<T> {
  readonly findings: Finding[];
  readonly value?: T;
}
