import { BookMessage, LevelUpdate } from '../../market/book-update';
import { ExactJson } from '../exact-json';
import { FieldError, FieldProblems, JsonFields } from '../json-fields';
import { readPriceLevels } from '../price-levels';

/** A `Book` stream item that is not shaped as the exchange's `OrderBookInfo`; each problem says where. */
export class MalformedBookItemError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`malformed Book item: ${problems.join('; ')}`);
    this.name = 'MalformedBookItemError';
  }
}

/**
 * A `Book` stream item as the hub protocol hands it to the stream: decoded, or rejected. Only the
 * stream knows which instrument it asked for, so both keep the instrument as written for it to check.
 */
export type BookItem = DecodedBookItem | RejectedBookItem;

/** The item's levels as canonical decimal text, bids then asks, with its own version and snapshot flag. */
export interface DecodedBookItem {
  readonly instrument: string;
  readonly version: number;
  readonly snapshot: boolean;
  readonly updates: readonly LevelUpdate[];
}

/** An item the generic reader rejects, in its words; whether the instrument is the one expected is not judged yet. */
export interface RejectedBookItem {
  readonly rejection: MalformedBookItemError;
  /** Undefined when the instrument is no non-empty string, which is then among the problems. */
  readonly instrument: string | undefined;
}

/**
 * An object literal rather than a class instance: V8 drops the shape of a class's instances at a full
 * collection that finds none alive, and with it the optimised code of the reader that makes them.
 */
export function decodedBookItem(
  instrument: string,
  version: number,
  snapshot: boolean,
  updates: readonly LevelUpdate[],
): DecodedBookItem {
  return { instrument, version, snapshot, updates };
}

/**
 * Reads one parsed item of the hub's `Book` stream (spec 6.1): bids then asks, each level's price and
 * amount as canonical decimal text (amount "0" removes the level), the item's own `snapshot` flag and
 * `version`. Prices and amounts may be JSON numbers or numeric strings, but the item must come from an
 * exact parse (see parseExactJson): a number that already went through a float is not accepted.
 * Totals are ignored, they are no checksum. Any problem rejects the whole item, because a delta with
 * a level left out would leave the book silently wrong.
 */
export function readBookItem(item: ExactJson | undefined): BookItem {
  const problems = new FieldProblems();
  const fields = problems.read(() => JsonFields.of(item, 'item'));
  if (!fields) return rejectedBookItem(problems.messages, undefined);
  const instrument = problems.read(() => fields.string('instrument'));
  const version = problems.read(() => fields.integer('version', 0, Number.MAX_SAFE_INTEGER));
  const snapshot = problems.read(() => fields.flag('snapshot'));
  const bids = problems.read(() => readPriceLevels(fields, 'bids', 'bid', problems));
  const asks = problems.read(() => readPriceLevels(fields, 'asks', 'ask', problems));
  if (problems.messages.length > 0) return rejectedBookItem(problems.messages, instrument);
  return decodedBookItem(instrument!, version!, snapshot!, [...bids!, ...asks!]);
}

function rejectedBookItem(problems: readonly string[], instrument: string | undefined): RejectedBookItem {
  return { rejection: new MalformedBookItemError(problems), instrument };
}

/**
 * The book message of a read item, its instrument in lower case; throws the item's
 * MalformedBookItemError when it was rejected or is of another instrument than expected.
 *
 * @param receivedAt Unix milliseconds when the item arrived; items carry no time of their own.
 * @param expectedInstrument When given, an item of another instrument (any case) is rejected.
 */
export function bookMessageOf(item: BookItem, receivedAt: number, expectedInstrument?: string): BookMessage {
  const instrument = item.instrument?.toLowerCase();
  let wrong: string | undefined;
  if (instrument !== undefined && expectedInstrument !== undefined) {
    const expected = expectedInstrument.toLowerCase();
    if (instrument !== expected) wrong = wrongInstrument(expected, item.instrument!);
  }
  // A wrong instrument is the first problem the generic reader names.
  if ('rejection' in item)
    throw wrong === undefined
      ? item.rejection
      : new MalformedBookItemError([wrong, ...item.rejection.problems]);
  if (wrong !== undefined) throw new MalformedBookItemError([wrong]);
  const { version, snapshot, updates } = item;
  return { instrument: instrument!, version, snapshot, updates, time: receivedAt };
}

/** readBookItem and bookMessageOf in one, for a parsed item that did not come through the hub protocol. */
export function decodeJsonBookItem(
  item: ExactJson | undefined,
  receivedAt: number,
  expectedInstrument?: string,
): BookMessage {
  return bookMessageOf(readBookItem(item), receivedAt, expectedInstrument);
}

function wrongInstrument(expected: string, written: string): string {
  return new FieldError('item.instrument', `"${expected}"`, written).message;
}
