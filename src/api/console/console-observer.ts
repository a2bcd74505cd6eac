import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { Tuning } from '../../config/tuning';
import { Readiness } from '../../health/readiness';
import { SyncState } from '../../market/sync-state';
import { ListenerSet } from '../../store/listener-set';
import { OwnershipView, StateStore } from '../../store/state-store';
import { STATE_STORE } from '../../store/store.module';
import { MarketViews } from '../views/market-views';
import { BoundedRing } from './bounded-ring';
import { ConsoleEvent } from './console-event';
import { RestBudgetRow, restBudgetRows } from './rest-budget-row';
import { syncStateLabel } from './sync-state-label';

/** Events kept: about an hour of a bad day on a few dozen markets. */
const EVENT_CAPACITY = 500;
/** How often the store's reachability, the upstream connections and the leases are looked at. */
const LOOK_MS = 1_000;
/** Leases are read every this many looks: two reads of Redis, for operators only. */
const OWNERSHIP_EVERY_LOOKS = 2;
/** One freshness sample this often, an hour of them kept. */
const SAMPLE_MS = 10_000;
const SAMPLE_CAPACITY = 360;

/** One point of the freshness chart. */
export interface FreshnessSample {
  readonly at: number;
  /** The oldest data age of the listed markets (how long ago each book was last known current). */
  readonly maxDataAgeMs: number | null;
  /** Listed markets whose book is live and younger than `staleAfterMs` (tuning), out of `markets`. */
  readonly fresh: number;
  readonly markets: number;
}

/**
 * What the console knows beyond the stored state, kept by this process from what it observes: the
 * recent events (books leaving and regaining sync as the heads say, upstream connections changing
 * state as the ingest's readiness check says when this process ingests, the store turning
 * unreachable, reachable or empty, instruments changing owner as the leases say) and an hour of
 * freshness samples. Both start empty with the process, each replica keeps its own, and what
 * happened between two looks (a connection lost and back within a second) may go unseen.
 */
@Injectable()
export class ConsoleObserver implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ConsoleObserver.name);
  private readonly events = new BoundedRing<ConsoleEvent>(EVENT_CAPACITY);
  private readonly samples = new BoundedRing<FreshnessSample>(SAMPLE_CAPACITY);
  private readonly listeners = new ListenerSet<void>((error) =>
    this.logger.error(`a console listener failed: ${String(error)}`),
  );
  private readonly syncStates = new Map<string, SyncState>();
  private upstreamStates = new Map<string, string>();
  private restBudgetRows: readonly RestBudgetRow[] = [];
  private storeUnreachable = false;
  private ownershipView?: OwnershipView;
  private ownershipError?: string;
  private looks = 0;
  private lastSampleAt = 0;
  private timer?: NodeJS.Timeout;
  private unsubscribe: (() => void)[] = [];
  private looking = false;

  constructor(
    private readonly views: MarketViews,
    @Inject(STATE_STORE) private readonly store: StateStore,
    private readonly readiness: Readiness,
    private readonly config: AppConfig,
    private readonly tuning: Tuning,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.CONSOLE_ENABLED && !this.config.STATUS_PAGE_ENABLED) return;
    this.unsubscribe.push(this.views.onListingChange(() => this.followHeads()));
    this.unsubscribe.push(
      this.store.onReset(() =>
        this.record({
          kind: 'store',
          message: 'the store lost its contents (Redis restarted empty or was flushed)',
        }),
      ),
    );
    this.followHeads();
    this.timer = setInterval(() => void this.look(), LOOK_MS);
    void this.look();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.unsubscribe.forEach((unsubscribe) => unsubscribe());
  }

  /** Called after each change of a market's figures or a new event. */
  onChange(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  recentEvents(): ConsoleEvent[] {
    return this.events.newestFirst();
  }

  freshness(): FreshnessSample[] {
    return this.samples.oldestFirst();
  }

  /** The last read of the leases and members; undefined before the first, or `error` when it failed. */
  ownership(): { view?: OwnershipView; error?: string } {
    return { view: this.ownershipView, error: this.ownershipError };
  }

  /** Each upstream connection's state, as this process's ingest reports it; empty without one. */
  upstream(): ReadonlyMap<string, string> {
    return this.upstreamStates;
  }

  /** The REST budget in use, as this process's ingest reports it; empty without one. */
  restBudget(): readonly RestBudgetRow[] {
    return this.restBudgetRows;
  }

  private record(
    event: Omit<ConsoleEvent, 'at' | 'incident'> & Partial<Pick<ConsoleEvent, 'incident'>>,
  ): void {
    this.events.add({ at: Date.now(), incident: null, ...event });
    this.listeners.emit();
  }

  private followHeads(): void {
    for (const market of this.views.markets()) {
      const state = this.views.head(market.instrument)?.syncState;
      if (!state) continue;
      const before = this.syncStates.get(market.instrument);
      this.syncStates.set(market.instrument, state);
      if (before === undefined || before === state) continue;
      const key = market.instrument.toUpperCase();
      this.events.add({
        at: Date.now(),
        kind: 'sync',
        market: key,
        message:
          state === 'live'
            ? `${key}: book live again (was ${syncStateLabel(before)})`
            : `${key}: book ${syncStateLabel(state)}`,
        incident: before === 'live' ? 'began' : state === 'live' ? 'ended' : null,
      });
    }
    this.listeners.emit();
  }

  private async look(): Promise<void> {
    if (this.looking) return;
    this.looking = true;
    try {
      this.lookAtStore();
      await this.lookAtUpstream();
      if (this.looks++ % OWNERSHIP_EVERY_LOOKS === 0) await this.lookAtOwnership();
      this.sample();
    } catch (error) {
      this.logger.warn(`console look failed: ${(error as Error).message}`);
    } finally {
      this.looking = false;
    }
  }

  private lookAtStore(): void {
    const unreachable = this.views.stale;
    if (unreachable === this.storeUnreachable) return;
    this.storeUnreachable = unreachable;
    this.record({
      kind: 'store',
      message: unreachable
        ? 'the store is unreachable: the last good state is served'
        : 'the store is reachable again',
      incident: unreachable ? 'began' : 'ended',
    });
  }

  private async lookAtUpstream(): Promise<void> {
    const { checks } = await this.readiness.evaluate();
    const described = (checks.ingest?.upstream ?? {}) as Record<string, string>;
    const now = new Map(Object.entries(described));
    for (const [name, state] of now) {
      const before = this.upstreamStates.get(name);
      if (before === undefined || before === state) continue;
      this.events.add({
        at: Date.now(),
        kind: 'upstream',
        message: `${name}: ${state} (was ${before})`,
        incident: null,
      });
    }
    const budget = restBudgetRows(checks.ingest?.restBudget);
    const changed =
      [...now].some(([name, state]) => this.upstreamStates.get(name) !== state) ||
      JSON.stringify(budget) !== JSON.stringify(this.restBudgetRows);
    this.upstreamStates = now;
    this.restBudgetRows = budget;
    if (changed) this.listeners.emit();
  }

  private async lookAtOwnership(): Promise<void> {
    const instruments = this.views.markets().map((market) => market.instrument);
    let view: OwnershipView;
    try {
      view = await this.store.readOwnership(instruments);
      this.ownershipError = undefined;
    } catch (error) {
      this.ownershipError = (error as Error).message;
      return;
    }
    const before = this.ownershipView;
    this.ownershipView = view;
    if (!before) return;
    for (const instrument of instruments) {
      const from = before.owners.get(instrument);
      const to = view.owners.get(instrument);
      if (from === to) continue;
      const key = instrument.toUpperCase();
      this.events.add({
        at: Date.now(),
        kind: 'ownership',
        market: key,
        message: !to
          ? `${key}: no longer owned (was ${from})`
          : from
            ? `${key}: taken over by ${to} from ${from}`
            : `${key}: owned by ${to}`,
        incident: null,
      });
    }
    this.listeners.emit();
  }

  private sample(): void {
    const now = Date.now();
    if (now - this.lastSampleAt < SAMPLE_MS) return;
    this.lastSampleAt = now;
    let maxDataAgeMs: number | null = null;
    let fresh = 0;
    const markets = this.views.markets();
    for (const market of markets) {
      const head = this.views.head(market.instrument);
      const age = head && head.confirmedAt > 0 ? Math.max(0, now - head.confirmedAt) : null;
      if (age !== null) maxDataAgeMs = Math.max(maxDataAgeMs ?? 0, age);
      if (head?.syncState === 'live' && age !== null && age < this.tuning.staleAfterMs) fresh++;
    }
    this.samples.add({ at: now, maxDataAgeMs, fresh, markets: markets.length });
  }
}
