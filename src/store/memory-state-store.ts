import { Logger } from '@nestjs/common';
import { MarketCatalog } from '../market/market-info';
import { Trade } from '../market/trade';
import { distinctLevels } from './instrument-change-message';
import { catalogNotice, instrumentNotice } from './change-notice';
import { decodeLease, encodeLease } from './lease-value';
import { InstrumentFollowers } from './instrument-followers';
import { ListenerSet } from './listener-set';
import {
  InstrumentChange,
  ChangeSubscription,
  BookView,
  ChangeNotice,
  InstrumentHead,
  InstrumentWrite,
  PriceLevel,
  StateStore,
  OwnershipView,
  StoreHealth,
  TradeTail,
  WriteFence,
  WriteOutcome,
} from './state-store';
import { StoreLogger } from './store-logger';
import { compareTradesOldestFirst, sortBestFirst } from './store-order';
import { encodeTradeFields } from './trade-fields-codec';

interface InstrumentState {
  head: InstrumentHead;
  bids: Map<string, string>;
  asks: Map<string, string>;
  /** By `encodeTradeFields`, so that a trade written twice is kept once, as in Redis. */
  trades: Map<string, Trade>;
  /** Time of the oldest stored trade (Infinity without trades), so that trimming scans only when due. */
  oldestTradeTime: number;
  /** Sorted views, built on the first read after a change. */
  sortedBook?: { readonly bids: readonly PriceLevel[]; readonly asks: readonly PriceLevel[] };
  sortedTrades?: readonly Trade[];
}

export interface MemoryStateStoreOptions {
  /** Where exceptions thrown by listeners are reported; a Nest logger by default. */
  readonly logger?: StoreLogger;
}

/**
 * The state store in process memory, for a single process without Redis. Stored values are frozen
 * copies and every read returns new arrays and maps, so callers never share mutable state with the
 * store. Change notices arrive on a microtask after the write, as they would from Redis.
 */
export class MemoryStateStore implements StateStore {
  private readonly instruments = new Map<string, InstrumentState>();
  /** Lease text per instrument, as the Redis lease key would hold it. */
  private readonly leases = new Map<string, string>();
  private catalog: MarketCatalog | undefined;
  private readonly changeListeners: ListenerSet<ChangeNotice>;
  private readonly followers: InstrumentFollowers;
  private readonly resetListeners: ListenerSet<void>;
  private readonly reportListenerError: (error: unknown) => void;
  private closed = false;

  constructor(options: MemoryStateStoreOptions = {}) {
    const logger = options.logger ?? new Logger(MemoryStateStore.name);
    this.reportListenerError = (error) => logger.warn(`state store listener failed: ${String(error)}`);
    this.changeListeners = new ListenerSet(this.reportListenerError);
    this.followers = new InstrumentFollowers(this.reportListenerError);
    this.resetListeners = new ListenerSet(this.reportListenerError);
  }

  /**
   * Sets (or with `undefined` removes) the lease of an instrument, the in-process stand-in for the
   * Redis lease key: fenced writes are applied only while it holds exactly their owner and token.
   */
  setLease(instrument: string, fence: WriteFence | undefined): void {
    if (fence === undefined) this.leases.delete(instrument);
    else this.leases.set(instrument, encodeLease(fence));
  }

  async write(batch: readonly InstrumentWrite[]): Promise<WriteOutcome[]> {
    this.assertOpen();
    // Fences are checked up front, so that a malformed one fails the batch before anything is applied.
    const expectedLeases = batch.map((write) => (write.fence ? encodeLease(write.fence) : undefined));
    return batch.map((write, index) => this.apply(write, expectedLeases[index]));
  }

  async writeCatalog(catalog: MarketCatalog): Promise<void> {
    this.assertOpen();
    this.catalog = frozenCopy(catalog);
    this.announce(catalogNotice(catalog.refreshedAt));
  }

  async readCatalog(): Promise<MarketCatalog | undefined> {
    this.assertOpen();
    return this.catalog;
  }

  async readHeads(instruments: readonly string[]): Promise<Map<string, InstrumentHead>> {
    this.assertOpen();
    const heads = new Map<string, InstrumentHead>();
    for (const instrument of instruments) {
      const state = this.instruments.get(instrument);
      if (state) heads.set(instrument, state.head);
    }
    return heads;
  }

  async readBook(instrument: string): Promise<BookView | undefined> {
    this.assertOpen();
    const state = this.instruments.get(instrument);
    if (!state) return undefined;
    state.sortedBook ??= {
      bids: sortBestFirst(levelsOf(state.bids), 'bids'),
      asks: sortBestFirst(levelsOf(state.asks), 'asks'),
    };
    return {
      instrument,
      version: state.head.bookVersion,
      updatedAt: state.head.bookUpdatedAt,
      syncState: state.head.syncState,
      bids: [...state.sortedBook.bids],
      asks: [...state.sortedBook.asks],
    };
  }

  async readTrades(instrument: string): Promise<Trade[]> {
    this.assertOpen();
    const state = this.instruments.get(instrument);
    if (!state) return [];
    state.sortedTrades ??= [...state.trades.values()].sort(compareTradesOldestFirst);
    return [...state.sortedTrades];
  }

  async readTradesFrom(instrument: string, from: number): Promise<TradeTail> {
    const trades = await this.readTrades(instrument);
    return {
      trades: trades.filter((trade) => trade.time >= from),
      count: trades.length,
      ...(trades.length > 0 ? { oldest: trades[0] } : {}),
    };
  }

  async trimTrades(instruments: readonly string[], before: number): Promise<number> {
    this.assertOpen();
    let dropped = 0;
    for (const instrument of new Set(instruments)) {
      const state = this.instruments.get(instrument);
      if (!state || before < state.oldestTradeTime) continue;
      const count = state.trades.size;
      trimTrades(state, before);
      state.sortedTrades = undefined;
      dropped += count - state.trades.size;
    }
    return dropped;
  }

  onChange(listener: (notice: ChangeNotice) => void): () => void {
    return this.changeListeners.add(listener);
  }

  followInstrument(instrument: string, listener: (change: InstrumentChange) => void): ChangeSubscription {
    return {
      ready: Promise.resolve(),
      close: this.followers.follow(instrument, listener),
    };
  }

  /** Process memory is never lost while the process runs, so reset listeners are never called. */
  onReset(listener: () => void): () => void {
    return this.resetListeners.add(listener);
  }

  /** A memory store is one process's: that process ingests everything (leases are set by tests only). */
  async readOwnership(instruments: readonly string[]): Promise<OwnershipView> {
    const owners = new Map<string, string>();
    for (const instrument of instruments) {
      const owner = decodeLease(this.leases.get(instrument) ?? '')?.owner;
      if (owner) owners.set(instrument, owner);
    }
    return { leased: false, owners, members: [] };
  }

  async health(): Promise<StoreHealth> {
    return this.closed ? { reachable: false, error: 'store closed' } : { reachable: true, latencyMs: 0 };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.changeListeners.clear();
    this.resetListeners.clear();
    this.followers.clear();
  }

  /** Applies one write completely or not at all; nothing that can throw runs after the first change. */
  private apply(write: InstrumentWrite, expectedLease: string | undefined): WriteOutcome {
    const { instrument } = write;
    if (expectedLease !== undefined && this.leases.get(instrument) !== expectedLease) {
      return { instrument, result: 'fenced' };
    }
    const head = frozenHead(write.head);
    const trades = (write.tradesAdded ?? []).map(frozenTrade);
    const existing = this.instruments.get(instrument);
    const state: InstrumentState =
      existing && !write.replace
        ? existing
        : { head, bids: new Map(), asks: new Map(), trades: new Map(), oldestTradeTime: Infinity };
    applyLevels(state.bids, write.levels?.bids ?? []);
    applyLevels(state.asks, write.levels?.asks ?? []);
    for (const trade of trades) {
      state.trades.set(encodeTradeFields(trade), trade);
      state.oldestTradeTime = Math.min(state.oldestTradeTime, trade.time);
    }
    if (write.tradesBefore !== undefined && write.tradesBefore >= state.oldestTradeTime) {
      trimTrades(state, write.tradesBefore);
    }
    const fromVersion = existing?.head.bookVersion;
    const fromTradesRevision = existing?.head.tradesRevision;
    state.head = head;
    state.sortedBook = undefined;
    state.sortedTrades = undefined;
    this.instruments.set(instrument, state);
    const change: InstrumentChange = {
      instrument,
      ...(fromVersion === undefined ? {} : { fromVersion }),
      replace: write.replace,
      head,
      bids: distinctLevels(write.levels?.bids ?? []),
      asks: distinctLevels(write.levels?.asks ?? []),
      ...(fromTradesRevision === undefined ? {} : { fromTradesRevision }),
      trades,
    };
    // One notice per write, as Redis publishes one message: the instrument's listeners hear it too.
    queueMicrotask(() => {
      this.changeListeners.emit(instrumentNotice(change));
      this.followers.emit(change);
    });
    return { instrument, result: 'written' };
  }

  private announce(notice: ChangeNotice): void {
    queueMicrotask(() => this.changeListeners.emit(notice));
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('state store closed');
  }
}

function applyLevels(side: Map<string, string>, levels: readonly PriceLevel[]): void {
  for (const [price, amount] of levels) {
    if (amount === '0') side.delete(price);
    else side.set(price, amount);
  }
}

function trimTrades(state: InstrumentState, cutoff: number): void {
  let oldest = Infinity;
  for (const [fields, trade] of state.trades) {
    if (trade.time <= cutoff) state.trades.delete(fields);
    else oldest = Math.min(oldest, trade.time);
  }
  state.oldestTradeTime = oldest;
}

function levelsOf(side: Map<string, string>): PriceLevel[] {
  return [...side].map((level) => Object.freeze(level) as PriceLevel);
}

/**
 * The copies of the hot path, field by field: structuredClone of every head and trade was a large
 * share of the ingest's CPU at thousands of writes per second. Heads and trades hold only
 * primitives, the stats and two levels; a field added to them must be copied here too (the
 * spec's round trip checks it).
 */
function frozenHead(head: InstrumentHead): InstrumentHead {
  return Object.freeze({
    ...head,
    ...(head.bestBid ? { bestBid: Object.freeze([head.bestBid[0], head.bestBid[1]] as const) } : {}),
    ...(head.bestAsk ? { bestAsk: Object.freeze([head.bestAsk[0], head.bestAsk[1]] as const) } : {}),
    stats: Object.freeze({ ...head.stats }),
    ...(head.lastTrade ? { lastTrade: Object.freeze({ ...head.lastTrade }) } : {}),
  });
}

function frozenTrade(trade: Trade): Trade {
  return Object.freeze({ ...trade });
}

function frozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
