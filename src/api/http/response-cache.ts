import { CachedBody } from './cached-body';

export interface BuiltResponse {
  readonly body: string;
  readonly contentType?: string;
}

interface Entry {
  readonly version: string;
  readonly cached: CachedBody;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Responses by key (endpoint and parameters), each built once per state version: the next request
 * for the same key and version gets the same bytes. Least recently used keys go first when full.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 2_000) {}

  get(key: string, version: string, build: () => BuiltResponse): CachedBody {
    const entry = this.entries.get(key);
    if (entry && entry.version === version) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.cached;
    }
    const built = build();
    const cached = new CachedBody(Buffer.from(built.body), built.contentType ?? JSON_TYPE);
    this.entries.delete(key);
    this.entries.set(key, { version, cached });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return cached;
  }
}
