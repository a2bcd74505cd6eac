import { BookMessage } from '../../market/book-update';
import { ExactJson } from '../exact-json';
import { FieldError, FieldProblems, JsonFields } from '../json-fields';
import { readPriceLevels } from '../price-levels';
import { decodedBookMessage, genericBookItem, isDecodedBookItem } from './book-item-reader';

/** A `Book` stream item that is not shaped as the exchange's `OrderBookInfo`; each problem says where. */
export class MalformedBookItemError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`malformed Book item: ${problems.join('; ')}`);
    this.name = 'MalformedBookItemError';
  }
}

/**
 * Decodes one item of the hub's `Book` stream (spec 6.1) into a book message: bids then asks, each
 * level's price and amount as canonical decimal text (amount "0" removes the level), the item's own
 * `snapshot` flag and `version`. Prices and amounts may be JSON numbers or numeric strings, but the
 * item must come from an exact parse (see parseExactJson): a number that already went through a
 * float is not accepted. An item the hub protocol already read from its frame (DecodedBookItem)
 * is taken as it is. Totals are ignored, they are no checksum. Any problem rejects the whole
 * item, because a delta with a level left out would leave the book silently wrong.
 *
 * @param receivedAt Unix milliseconds when the item arrived; items carry no time of their own.
 * @param expectedInstrument When given, an item of another instrument (any case) is rejected.
 */
export function decodeBookItem(item: unknown, receivedAt: number, expectedInstrument?: string): BookMessage {
  if (isDecodedBookItem(item)) {
    const message = decodedBookMessage(item, receivedAt, expectedInstrument);
    if (message) return message;
    // Of another instrument: the generic reading names the problem.
    item = genericBookItem(item);
  }
  const problems = new FieldProblems();
  const fields = problems.read(() => JsonFields.of(item as ExactJson | undefined, 'item'));
  if (!fields) throw new MalformedBookItemError(problems.messages);
  const instrument = problems.read(() => fields.string('instrument').toLowerCase());
  if (instrument !== undefined && expectedInstrument !== undefined) {
    const expected = expectedInstrument.toLowerCase();
    if (instrument !== expected) {
      problems.add(new FieldError(fields.at('instrument'), `"${expected}"`, fields.raw('instrument')));
    }
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
