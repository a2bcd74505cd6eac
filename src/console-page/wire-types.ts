/**
 * The snapshots the gateway's feeds send (`/console/feed`, `/status/feed`) and the console's market
 * data (`/console/market-data/{instrument}`), as `src/api/console/` writes them.
 */

export interface ConsoleEvent {
  readonly at: number;
  readonly kind: 'sync' | 'upstream' | 'ownership' | 'store';
  readonly market?: string;
  readonly message: string;
}

export interface ConsoleMarketRow {
  readonly market: string;
  readonly instrument: string;
  /** Upper-case asset codes: the units amounts are written in. */
  readonly base: string;
  readonly quote: string;
  readonly status: string;
  readonly syncState: string;
  readonly bookVersion: number | null;
  readonly dataAgeMs: number | null;
  readonly lastTradeAgeMs: number | null;
  readonly lastPrice: string | null;
  readonly bestBid: string | null;
  readonly bestAsk: string | null;
  readonly spreadPercent: string | null;
  readonly depthPlus2PercentUsd: string | null;
  readonly depthMinus2PercentUsd: string | null;
  readonly quoteVolume24h: string;
  readonly quoteVolume24hUsd: string | null;
  readonly trades24h: number;
  readonly flags: readonly string[];
  readonly owner: string | null;
}

export interface FreshnessSample {
  readonly at: number;
  readonly maxDataAgeMs: number | null;
  readonly fresh: number;
  readonly markets: number;
}

export interface ConsoleSnapshot {
  readonly view: 'console';
  readonly generatedAt: number;
  readonly staleAfterMs: number;
  readonly sandbox: boolean;
  readonly store: { readonly reachable: boolean; readonly kind: 'redis' | 'memory' };
  readonly markets: readonly ConsoleMarketRow[];
  readonly upstream: readonly { readonly name: string; readonly state: string }[] | null;
  readonly restBudget:
    | readonly {
        readonly family: string;
        readonly limit: number;
        readonly counting: number;
        readonly waiting: number;
        readonly scope: string;
      }[]
    | null;
  readonly replicas: {
    readonly leased: boolean;
    readonly ingest: readonly { readonly id: string; readonly expiresInMs: number; readonly owns: number }[];
    readonly api: readonly { readonly id: string; readonly role: string; readonly self: true }[];
    readonly error: string | null;
  };
  readonly events: readonly ConsoleEvent[];
  readonly freshness: readonly FreshnessSample[];
}

export interface StatusSnapshot {
  readonly view: 'status';
  readonly generatedAt: number;
  readonly sandbox: boolean;
  readonly markets: readonly {
    readonly market: string;
    readonly state: 'live' | 'stale';
    readonly dataAgeMs: number | null;
  }[];
  readonly incidents: readonly {
    readonly at: number;
    readonly market: string | null;
    readonly message: string;
  }[];
}

export type Level = readonly [price: string, amount: string];

/** Prices at the market's price scale, amounts at its amount scale, as the listing endpoints write them. */
export interface MarketDetail {
  readonly market: string;
  readonly base: string;
  readonly quote: string;
  readonly version: number | null;
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
  readonly trades: readonly {
    readonly id: string;
    readonly price: string;
    readonly amount: string;
    readonly side: string;
    readonly time: number;
  }[];
}
