import { WriteFence } from '../../store/state-store';

/** Why a replica stopped owning an instrument. */
export type LossReason =
  /** no longer listed in the catalogue */
  | 'unlisted'
  /** given up so that a replica with fewer instruments can take it */
  | 'rebalanced'
  /** the lease could not be renewed: it ran out, or another replica holds it now */
  | 'lost'
  /** a write came back fenced: another replica holds the lease now */
  | 'fenced';

/** Told what this replica owns; it must stop writing an instrument the moment it hears of its loss. */
export interface OwnershipListener {
  /** This replica owns the instrument now; every write of it must carry the fence (undefined: none needed). */
  acquired(instrument: string, fence: WriteFence | undefined): void;
  lost(instrument: string, reason: LossReason): void;
}

export interface OwnershipStatus {
  /** Ownership was decided for the current listing at least once (a replica may own nothing). */
  readonly settled: boolean;
  readonly owned: number;
  /** Live ingest replicas, this one included. */
  readonly replicas: number;
  /** Listed instruments that no replica held at the last look; undefined before the first. */
  readonly unowned?: number;
}

/**
 * Which instruments this ingest replica writes. One owner per instrument: alone, a process owns every
 * listed market; with Redis, replicas share them out by leases with fencing tokens.
 */
export interface InstrumentOwnership {
  start(listener: OwnershipListener): void;
  /** The instruments to share out; owned ones no longer listed are lost at once. */
  setListed(instruments: readonly string[]): void;
  /** A write of the instrument was fenced: another replica owns it. Lost at once. */
  fenced(instrument: string): void;
  owns(instrument: string): boolean;
  status(): OwnershipStatus;
  /** Stops acquiring and renewing; what is owned stays owned until `release`. */
  stop(): Promise<void>;
  /** Gives up every instrument still owned and leaves the replicas, so that others take over at once. */
  release(): Promise<void>;
}

export const INSTRUMENT_OWNERSHIP = Symbol('InstrumentOwnership');
