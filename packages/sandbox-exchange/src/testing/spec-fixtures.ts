import { readFileSync } from 'node:fs';

/**
 * A message of the exchange as its specification describes it (package `exchange-fixtures`): the
 * exact text in `wire`, the values it carries in `means` (numbers as decimal text, times as ISO 8601).
 */
export interface SpecFixture<Means> {
  readonly spec: string;
  readonly message: string;
  readonly request?: string;
  readonly status?: string;
  readonly wire: string;
  readonly means: Means;
}

/** A gateway frame's meaning: the envelope's numbers as text, `o` decoded. */
export interface FrameMeaning<Payload> {
  readonly m: string;
  readonly i: string;
  readonly n: string;
  readonly o: Payload;
}

/** `{ amount, price }` of the REST depth and the hub's Book items. */
export interface LevelMeaning {
  readonly amount: string;
  readonly price: string;
}

/** A file of `exchange-fixtures`, e.g. `rest/depth.json`. */
export function readSpecFixture<Means>(file: string): SpecFixture<Means> {
  return JSON.parse(readFileSync(require.resolve(`exchange-fixtures/${file}`), 'utf8')) as SpecFixture<Means>;
}

/** Unix milliseconds of an instant the fixtures write in ISO 8601. */
export function unixMs(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`not an ISO 8601 instant: ${iso}`);
  return ms;
}
