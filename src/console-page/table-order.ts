/** A column the market table sorts by, and how its values compare. */
export interface SortKey {
  readonly field: string;
  readonly descending: boolean;
}

type Value = string | number | boolean | null | undefined | readonly unknown[];

/** Numbers (also decimal text) by value, text alphabetically, absent values last whatever the order. */
export function compareValues(a: Value, b: Value): number {
  const absent = (value: Value) => value === null || value === undefined;
  if (absent(a) || absent(b)) return absent(a) === absent(b) ? 0 : absent(a) ? 1 : -1;
  const toNumber = (value: Value) =>
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)
        ? Number(value)
        : NaN;
  const [x, y] = [toNumber(a), toNumber(b)];
  if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  const text = (value: Value) => (Array.isArray(value) ? value.join(',') : String(value));
  return text(a).localeCompare(text(b));
}

/**
 * The rows that match `filter` (every word found in one of the row's texts, any case), sorted by
 * `sort` (absent values last), then by market name.
 */
export function orderRows<Row extends { readonly market: string }>(
  rows: readonly Row[],
  filter: string,
  sort: SortKey,
): Row[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const matching = rows.filter((row) => {
    const text = Object.values(row)
      .map((value) => (Array.isArray(value) ? value.join(' ') : String(value ?? '')))
      .join(' ')
      .toLowerCase();
    return words.every((word) => text.includes(word));
  });
  const field = (row: Row) => (row as unknown as Record<string, Value>)[sort.field];
  return matching.sort((a, b) => {
    const [x, y] = [field(a), field(b)];
    const absent = (value: Value) => value === null || value === undefined;
    const order =
      absent(x) || absent(y) ? compareValues(x, y) : (sort.descending ? -1 : 1) * compareValues(x, y);
    return order || a.market.localeCompare(b.market);
  });
}
