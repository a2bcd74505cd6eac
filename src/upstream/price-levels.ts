import { BookSide, LevelUpdate } from '../market/book-update';
import { isJsonObject } from './exact-json';
import { decimalText, FieldProblems, JsonFields } from './json-fields';

/**
 * The `{ price, amount }` levels of `fields[key]`, as both the hub's Book items and the REST depth
 * body write them. A well-formed level is read directly; only a level with a problem pays for the
 * checked read that names its place (a deep book has tens of thousands of levels, and the closures
 * and path strings of the checked read were most of the decode's time). Each problem is noted in
 * `problems`; a level the checked read accepts is kept whichever read took it.
 */
export function readPriceLevels(
  fields: JsonFields,
  key: string,
  side: BookSide,
  problems: FieldProblems,
): LevelUpdate[] {
  const entries = fields.array(key);
  const updates: LevelUpdate[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index];
    const price = isJsonObject(entry) ? decimalText(entry.price) : undefined;
    const amount = price !== undefined && isJsonObject(entry) ? decimalText(entry.amount) : undefined;
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
