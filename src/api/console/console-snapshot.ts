import { MarketHealth } from '../../market/listing-health/health-figures';
import { InstrumentHead, OwnershipView } from '../../store/state-store';
import { ConsoleEvent } from './console-event';
import { FreshnessSample } from './console-observer';
import { RestBudgetRow } from './rest-budget-row';
import { syncStateLabel } from './sync-state-label';

import type { ConsoleMarketRow, ConsoleSnapshot } from './console-schemas';

export type { ConsoleMarketRow, ConsoleReplicas, ConsoleSnapshot } from './console-schemas';

export interface ConsoleSnapshotInput {
  readonly now: number;
  readonly staleAfterMs: number;
  readonly markets: readonly MarketHealth[];
  readonly heads: (instrument: string) => InstrumentHead | undefined;
  /** The market's last price as `/summary` writes it (null for a market the listing does not hold). */
  readonly lastPrice: (instrument: string) => string | null;
  readonly storeReachable: boolean;
  readonly sandbox: boolean;
  readonly redis: boolean;
  readonly ownership: { readonly view?: OwnershipView; readonly error?: string };
  /** This process: its name, role, and whether it ingests (then it owns everything without leases). */
  readonly self: { readonly id: string; readonly role: string; readonly ingests: boolean };
  readonly upstream: ReadonlyMap<string, string>;
  readonly restBudget: readonly RestBudgetRow[];
  readonly events: readonly ConsoleEvent[];
  readonly freshness: readonly FreshnessSample[];
}

/** The console's view of the gateway, from the listing-health report and what the process observed. */
export function consoleSnapshot(input: ConsoleSnapshotInput): ConsoleSnapshot {
  const view = input.ownership.view;
  const ownerOf = (instrument: string): string | null => {
    if (view && view.leased) return view.owners.get(instrument) ?? null;
    if (view?.owners.has(instrument)) return view.owners.get(instrument)!;
    return input.self.ingests ? input.self.id : null;
  };
  const markets = input.markets.map((health): ConsoleMarketRow => {
    const head = input.heads(health.instrument);
    return {
      market: health.instrument.toUpperCase(),
      instrument: health.instrument,
      base: health.base,
      quote: health.quote,
      status: health.status,
      syncState: syncStateLabel(health.syncState),
      bookVersion: head?.bookVersion ?? health.bookVersion,
      dataAgeMs: health.bookAgeMs,
      lastTradeAgeMs: health.lastTradeAgeMs,
      lastPrice: input.lastPrice(health.instrument),
      bestBid: health.bestBid,
      bestAsk: health.bestAsk,
      spreadPercent: health.spreadPercentage,
      depthPlus2PercentUsd: health.usd.depthPlus2Percent,
      depthMinus2PercentUsd: health.usd.depthMinus2Percent,
      quoteVolume24h: health.quoteVolume24h,
      quoteVolume24hUsd: health.usd.quoteVolume24h,
      trades24h: health.trades24h,
      flags: health.flags.map((flag) => flag.code),
      owner: ownerOf(health.instrument),
    };
  });
  const owned = new Map<string, number>();
  for (const row of markets) if (row.owner) owned.set(row.owner, (owned.get(row.owner) ?? 0) + 1);
  const ingest = view?.leased
    ? view.members.map((member) => ({
        id: member.id,
        expiresInMs: Math.max(0, member.expiresAt - input.now),
        owns: owned.get(member.id) ?? 0,
      }))
    : input.self.ingests
      ? [{ id: input.self.id, expiresInMs: 0, owns: markets.length }]
      : [];
  return {
    view: 'console',
    generatedAt: input.now,
    staleAfterMs: input.staleAfterMs,
    sandbox: input.sandbox,
    store: { reachable: input.storeReachable, kind: input.redis ? 'redis' : 'memory' },
    markets,
    upstream: input.self.ingests ? [...input.upstream].map(([name, state]) => ({ name, state })) : null,
    restBudget: input.self.ingests ? input.restBudget : null,
    replicas: {
      leased: view?.leased ?? false,
      ingest,
      api: [{ id: input.self.id, role: input.self.role, self: true }],
      error: input.ownership.error ?? null,
    },
    events: input.events,
    freshness: input.freshness,
  };
}
