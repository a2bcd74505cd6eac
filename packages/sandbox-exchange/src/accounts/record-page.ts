/** One field to sort by, and which way. */
export interface SortKey<T> {
  readonly compare: (a: T, b: T) => number;
  readonly descending: boolean;
}

export interface PageRequest {
  /** 1-based. */
  readonly page: number;
  readonly perPage: number;
}

export interface RecordPage<T> {
  readonly page: number;
  readonly perPage: number;
  /** Records that matched the filter, on every page. */
  readonly total: number;
  readonly items: readonly T[];
}

/** Filters, sorts by the keys in order (the first that differs decides) and cuts one page. */
export function pageOf<T>(
  records: Iterable<T>,
  filter: (record: T) => boolean,
  sort: readonly SortKey<T>[],
  page: PageRequest,
): RecordPage<T> {
  const matching = [...records].filter(filter);
  matching.sort((a, b) => {
    for (const key of sort) {
      const order = key.compare(a, b);
      if (order !== 0) return key.descending ? -order : order;
    }
    return 0;
  });
  const start = (page.page - 1) * page.perPage;
  return {
    page: page.page,
    perPage: page.perPage,
    total: matching.length,
    items: matching.slice(start, start + page.perPage),
  };
}

/** Ascending comparison of numbers, bigints or strings. */
export function ascending<T>(field: (record: T) => number | bigint | string): (a: T, b: T) => number {
  return (a, b) => {
    const x = field(a);
    const y = field(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}
