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

/** Marks the items the hub protocol decoded itself; no parsed JSON value can hold a symbol. */
const DECODED = Symbol('decoded Book item');

/**
 * A `Book` stream item that the hub protocol read straight from its frame (see readHubFormBookItem):
 * what the generic decoding below makes of the same item, the instrument still as written.
 */
export interface DecodedBookItem {
  readonly decoded: typeof DECODED;
  readonly instrument: string;
  readonly version: number;
  readonly snapshot: boolean;
  readonly updates: readonly LevelUpdate[];
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
  return { decoded: DECODED, instrument, version, snapshot, updates };
}

export function isDecodedBookItem(item: unknown): item is DecodedBookItem {
  return typeof item === 'object' && item !== null && (item as { decoded?: unknown }).decoded === DECODED;
}

/**
 * Decodes one item of the hub's `Book` stream (spec 6.1) into a book message: bids then asks, each
 * level's price and amount as canonical decimal text (amount "0" removes the level), the item's own
 * `snapshot` flag and `version`. Prices and amounts may be JSON numbers or numeric strings, but the
 * item must come from an exact parse (see parseExactJson): a number that already went through a
 * float is not accepted. A DecodedBookItem is taken as it is. Totals are ignored, they are no
 * checksum. Any problem rejects the whole item, because a delta with a level left out would leave
 * the book silently wrong.
 *
 * @param receivedAt Unix milliseconds when the item arrived; items carry no time of their own.
 * @param expectedInstrument When given, an item of another instrument (any case) is rejected.
 */
export function decodeBookItem(item: unknown, receivedAt: number, expectedInstrument?: string): BookMessage {
  if (isDecodedBookItem(item)) return decodedBookMessage(item, receivedAt, expectedInstrument);
  const problems = new FieldProblems();
  const fields = problems.read(() => JsonFields.of(item as ExactJson | undefined, 'item'));
  if (!fields) throw new MalformedBookItemError(problems.messages);
  const instrument = problems.read(() => fields.string('instrument').toLowerCase());
  if (instrument !== undefined && expectedInstrument !== undefined) {
    const expected = expectedInstrument.toLowerCase();
    if (instrument !== expected) problems.add(wrongInstrument(expected, fields.raw('instrument')));
  }
  const version = problems.read(() => fields.integer('version', 0, Number.MAX_SAFE_INTEGER));
  const snapshot = problems.read(() => fields.flag('snapshot'));
  const bids = problems.read(() => readPriceLevels(fields, 'bids', 'bid', problems));
  const asks = problems.read(() => readPriceLevels(fields, 'asks', 'ask', problems));
  if (problems.messages.length > 0) throw new MalformedBookItemError(problems.messages);
  return {
    instrument: instrument!,
    version: version!,
    snapshot: snapshot!,
    updates: [...bids!, ...asks!],
    time: receivedAt,
  };
}

function decodedBookMessage(
  item: DecodedBookItem,
  receivedAt: number,
  expectedInstrument: string | undefined,
): BookMessage {
  const instrument = item.instrument.toLowerCase();
  if (expectedInstrument !== undefined) {
    const expected = expectedInstrument.toLowerCase();
    if (instrument !== expected)
      throw new MalformedBookItemError([wrongInstrument(expected, item.instrument).message]);
  }
  const { version, snapshot, updates } = item;
  return { instrument, version, snapshot, updates, time: receivedAt };
}

function wrongInstrument(expected: string, written: ExactJson | undefined): FieldError {
  return new FieldError('item.instrument', `"${expected}"`, written);
}
