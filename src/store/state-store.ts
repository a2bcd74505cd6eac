import type { PriceLevel } from '../market/book-update';
import { LastTrade } from '../market/last-trade';
import { MarketCatalog } from '../market/market-info';
import { MarketStats } from '../market/market-stats';
import { SyncState } from '../market/sync-state';
import { Trade } from '../market/trade';

export type { PriceLevel };

/** Whether the instrument's 24-hour trades come from a live trade feed. */
export type TradeFeedState = 'live' | 'unavailable';

/** The small, frequently read summary of one instrument, written with every change. */
export interface InstrumentHead {
  readonly instrument: string;
  readonly bookVersion: number;
  /** Unix milliseconds of the book's last change. */
  readonly bookUpdatedAt: number;
  readonly syncState: SyncState;
  readonly bestBid?: PriceLevel;
  readonly bestAsk?: PriceLevel;
  readonly stats: MarketStats;
  /**
   * The newest trade known, of any age (the trade feed's, or Level 1's last traded price without
   * one). Absent when none is known, and in heads written by replicas that predate it.
   */
  readonly lastTrade?: LastTrade;
  /** Grows whenever the stored trades change, so readers know when to reload them. */
  readonly tradesRevision: number;
  readonly tradeFeed: TradeFeedState;
  /** Unix milliseconds of the last upstream message about this instrument. */
  readonly lastEventAt: number;
  /**
   * Unix milliseconds when the book was last known to be current: a message of its live feed, or a
   * heartbeat of the writer while that feed is connected and the book live (a quiet or halted market
   * sends nothing, yet its data is fresh). It stops advancing while the feed is down.
   */
  readonly confirmedAt: number;
}

/** A full book, best levels first on both sides. */
export interface BookView {
  readonly instrument: string;
  readonly version: number;
  readonly updatedAt: number;
  readonly syncState: SyncState;
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
}

/** Proof that the writer still owns the instrument; a store rejects writes carrying a stale token. */
export interface WriteFence {
  readonly owner: string;
  readonly token: number;
}

/**
 * One atomic change of one instrument. With `replace` the levels and trades are the complete state;
 * without it, `levels` holds only changed levels (amount "0" removes one) and `tradesAdded` the new trades.
 */
export interface InstrumentWrite {
  readonly instrument: string;
  readonly replace: boolean;
  readonly head: InstrumentHead;
  readonly levels?: { readonly bids: readonly PriceLevel[]; readonly asks: readonly PriceLevel[] };
  readonly tradesAdded?: readonly Trade[];
  /** Stored trades with `time <= tradesBefore` are dropped. */
  readonly tradesBefore?: number;
  readonly fence?: WriteFence;
}

/** What a store announces of each write: one notice per instrument write, carrying what it changed. */
export type ChangeNotice =
  | {
      readonly kind: 'instrument';
      readonly instrument: string;
      readonly bookVersion: number;
      readonly tradesRevision: number;
      readonly change: InstrumentChange;
    }
  | { readonly kind: 'catalog'; readonly refreshedAt: number };

/** What one write changed of an instrument: its book's levels and the trades it added. */
export interface InstrumentChange {
  readonly instrument: string;
  /** The book version the store held before the write; undefined when it held none. */
  readonly fromVersion?: number;
  /** The write replaced the whole book: `bids` and `asks` are all of it. */
  readonly replace: boolean;
  /** The head the write left. */
  readonly head: InstrumentHead;
  /** The levels the write set, each price once, amount "0" for a level removed. */
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
  /** The trades revision the store held before the write; undefined when it held none. */
  readonly fromTradesRevision?: number;
  /** The trades the write added (all the stored trades with a replace), in the write's order. */
  readonly trades: readonly Trade[];
}

/** A listener's hold on the changes of one instrument. */
export interface ChangeSubscription {
  /** Resolves once every later write reaches the listener: read the book after it, not before. */
  readonly ready: Promise<void>;
  close(): void;
}

export interface WriteOutcome {
  readonly instrument: string;
  /** `fenced`: the fence token was stale and nothing was written. */
  readonly result: 'written' | 'fenced';
}

export interface StoreHealth {
  readonly reachable: boolean;
  readonly latencyMs?: number;
  readonly error?: string;
}

/** A live ingest replica, as the membership set names it. */
export interface IngestMember {
  readonly id: string;
  /** Unix milliseconds when its membership runs out unless renewed. */
  readonly expiresAt: number;
}

/** Who ingests what, as the leases and the ingest membership say at one look. */
export interface OwnershipView {
  /** False for a store without leases (memory): the one process ingests every instrument. */
  readonly leased: boolean;
  /** Instrument -> the ingest replica holding its lease; an instrument nobody holds is absent. */
  readonly owners: ReadonlyMap<string, string>;
  readonly members: readonly IngestMember[];
}

/** The stored trades of an instrument from a time on, and the stored set around them, read at one moment. */
export interface TradeTail {
  /** The trades with `time >= from`, oldest first (by time, then by trade id). */
  readonly trades: Trade[];
  /** How many trades are stored in all. */
  readonly count: number;
  /** The oldest stored trade, if any. */
  readonly oldest?: Trade;
}

/**
 * Market state shared by the ingest (the writer, one per instrument) and the API (readers).
 * Writes are atomic per instrument and announced as change notices; reads never see half a write.
 */
export interface StateStore {
  write(batch: readonly InstrumentWrite[]): Promise<WriteOutcome[]>;
  writeCatalog(catalog: MarketCatalog): Promise<void>;
  readCatalog(): Promise<MarketCatalog | undefined>;
  readHeads(instruments: readonly string[]): Promise<Map<string, InstrumentHead>>;
  readBook(instrument: string): Promise<BookView | undefined>;
  /** Stored trades of the instrument, oldest first (by time, then by trade id). */
  readTrades(instrument: string): Promise<Trade[]>;
  /** The newest stored trades, from `from` on, with what a reader needs to tell whether its copy still holds the rest. */
  readTradesFrom(instrument: string, from: number): Promise<TradeTail>;
  /**
   * Drops the stored trades with `time <= before` of each instrument, whoever writes it (or nobody):
   * the 24-hour window of an instrument without a live writer. Touches neither heads nor notices.
   * Resolves to the number of trades dropped.
   */
  trimTrades(instruments: readonly string[], before: number): Promise<number>;
  /**
   * Every write's notice, in the order of the writes; a fenced write announces nothing. Redis may drop
   * some while a connection is down: a change's `fromVersion` tells the listener.
   */
  onChange(listener: (notice: ChangeNotice) => void): () => void;
  /**
   * The changes of one instrument, from the same notices as `onChange` (no subscription of its own),
   * in the order of the writes.
   */
  followInstrument(instrument: string, listener: (change: InstrumentChange) => void): ChangeSubscription;
  /** Called when the store has lost its contents (e.g. Redis restarted empty): writers must replace everything. */
  onReset(listener: () => void): () => void;
  /** The lease owners of `instruments` and the live ingest replicas: two reads, for operators. */
  readOwnership(instruments: readonly string[]): Promise<OwnershipView>;
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}
