import { BookView } from '../../store/state-store';

/** A thousand books of 500 levels stay in memory; books asked for less often are read from the store again. */
export const BOOK_CACHE_MAX_LEVELS = 500_000;

export interface CachedBook {
  readonly view: BookView;
  readonly fetchedAt: number;
}

/**
 * The full books the API holds, least recently used first out once their levels pass `maxLevels`:
 * thousands of deep books would otherwise all stay in memory once each was asked for. The book just
 * stored always stays, however deep.
 */
export class BookCache {
  private readonly entries = new Map<string, CachedBook>();
  private levels = 0;

  constructor(private readonly maxLevels: number) {}

  /** The instrument's book, now the most recently used. */
  get(instrument: string): CachedBook | undefined {
    const entry = this.entries.get(instrument);
    if (entry) {
      this.entries.delete(instrument);
      this.entries.set(instrument, entry);
    }
    return entry;
  }

  /** The instrument's book, leaving the order of use as it is. */
  peek(instrument: string): CachedBook | undefined {
    return this.entries.get(instrument);
  }

  set(instrument: string, entry: CachedBook): void {
    const replaced = this.entries.get(instrument);
    if (replaced) {
      this.entries.delete(instrument);
      this.levels -= levelsOf(replaced);
    }
    this.entries.set(instrument, entry);
    this.levels += levelsOf(entry);
    for (const [name, oldest] of this.entries) {
      if (this.levels <= this.maxLevels || name === instrument) break;
      this.entries.delete(name);
      this.levels -= levelsOf(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get heldLevels(): number {
    return this.levels;
  }
}

function levelsOf(entry: CachedBook): number {
  return entry.view.bids.length + entry.view.asks.length;
}
