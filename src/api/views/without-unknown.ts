/** A record without the fields nobody stated: an aggregator reads a missing field as unknown, a made-up one as fact. */
export function withoutUnknown<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}
