import { BookMessage, BookSide, LevelUpdate } from '../../market/book-update';
import { ExactJson, isJsonObject } from '../exact-json';
import { decimalText, FieldError, FieldProblems, JsonFields } from '../json-fields';

/** A `Book` stream item that is not shaped as the exchange's `OrderBookInfo`; each problem says where. */
export class MalformedBookItemError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`malformed Book item: ${problems.join('; ')}`);
    this.name = 'MalformedBookItemError';
  }
}

function levels(
  fields: JsonFields,
  key: 'bids' | 'asks',
  side: BookSide,
  problems: FieldProblems,
): LevelUpdate[] {
  const entries = fields.array(key);
  const updates: LevelUpdate[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index];
    // Well-formed levels are read without the paths and closures that only a problem needs.
    const price = isJsonObject(entry) ? decimalText(entry.price) : undefined;
    const amount = isJsonObject(entry) ? decimalText(entry.amount) : undefined;
    if (price !== undefined && amount !== undefined) {
      updates.push({ side, price, amount });
      continue;
    }
    const update = problems.read(() => {
      const level = JsonFields.of(entry, `${fields.at(key)}[${index}]`);
      return { side, price: level.decimal('price'), amount: level.decimal('amount') };
    });
    if (update) updates.push(update);
  }
  return updates;
}

/**
 * Decodes one item of the hub's `Book` stream (spec 6.1) into a book message: bids then asks, each
 * level's price and amount as canonical decimal text (amount "0" removes the level), the item's own
 * `snapshot` flag and `version`. Prices and amounts may be JSON numbers or numeric strings, but the
 * item must come from an exact parse (see parseExactJson): a number that already went through a
 * float is not accepted. Totals are ignored, they are no checksum. Any problem rejects the whole
 * item, because a delta with a level left out would leave the book silently wrong.
 *
 * @param receivedAt Unix milliseconds when the item arrived; items carry no time of their own.
 * @param expectedInstrument When given, an item of another instrument (any case) is rejected.
 */
export function decodeBookItem(item: unknown, receivedAt: number, expectedInstrument?: string): BookMessage {
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
  const bids = problems.read(() => levels(fields, 'bids', 'bid', problems));
  const asks = problems.read(() => levels(fields, 'asks', 'ask', problems));
  if (problems.messages.length > 0) throw new MalformedBookItemError(problems.messages);
  return {
    instrument: instrument!,
    version: version!,
    snapshot: snapshot!,
    updates: [...bids!, ...asks!],
    time: receivedAt,
  };
}
