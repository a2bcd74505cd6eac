interface Entry<V> {
  readonly value: V;
  readonly weight: number;
  readonly storedAt: number;
  readonly stamp: string;
}

/**
 * A bounded cache of what no longer changes in the normal run of things (closed hours and days
 * well past the trade window), least recently used first out: an entry is served for at most
 * `ttlMs`, and only while the stamp it was stored under (what the archive says of its coverage) is
 * still the archive's.
 */
export class SettledCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private weight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly ttlMs: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry stored under `key` and `stamp` less than `ttlMs` before `now`, as `{ value }`. */
  get(key: string, stamp: string, now: number): { value: V } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.stamp !== stamp || now - entry.storedAt >= this.ttlMs) {
      this.weight -= entry.weight;
      return undefined;
    }
    this.entries.set(key, entry);
    return { value: entry.value };
  }

  set(key: string, value: V, weight: number, stamp: string, now: number): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.weight -= old.weight;
    }
    this.entries.set(key, { value, weight, storedAt: now, stamp });
    this.weight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.weight <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.weight -= entry.weight;
    }
  }
}
