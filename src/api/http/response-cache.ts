import { CachedBody } from './cached-body';

export interface BuiltResponse {
  readonly body: string;
  readonly contentType?: string;
}

interface Entry {
  readonly version: string;
  readonly cached: CachedBody;
  /** Asked for since it was last passed over for eviction. */
  used: boolean;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Responses by key (endpoint and parameters), each built once per state version: the next request
 * for the same key and version gets the same bytes.
 *
 * When full, a key not asked for again since it was cached (or last passed over) goes first, so a
 * scan of one-off keys (every `depth`) does not push out the hot ones. A hit only marks its entry
 * ("second chance" eviction) instead of moving it to the end of the map as an LRU would: deleting
 * and re-adding a key on every request churns V8's hash table and cost the hot path more than the
 * rest of the lookup.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 2_000) {}

  get(key: string, version: string, build: () => BuiltResponse): CachedBody {
    const entry = this.entries.get(key);
    if (entry && entry.version === version) {
      entry.used = true;
      return entry.cached;
    }
    const built = build();
    const cached = new CachedBody(Buffer.from(built.body), built.contentType ?? JSON_TYPE);
    this.entries.delete(key);
    this.entries.set(key, { version, cached, used: false });
    if (this.entries.size > this.maxEntries) this.evictOne();
    return cached;
  }

  /** Evicts the oldest entry not used since it was last passed over; used ones go to the end. */
  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (!entry.used) return;
      entry.used = false;
      this.entries.set(key, entry);
    }
  }
}
