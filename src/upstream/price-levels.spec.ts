import fc from 'fast-check';
import { parseExactJson } from './exact-json';
import { FieldProblems, JsonFields, readDecimal } from './json-fields';
import { readPriceLevels } from './price-levels';

/** The levels as the checked read alone takes them: a level is kept when both its fields read. */
function checkedLevels(body: string): { kept: [string, string][]; problems: number } {
  const entries = JsonFields.of(parseExactJson(body), '').array('bids');
  const kept: [string, string][] = [];
  let problems = 0;
  entries.forEach((entry, index) => {
    try {
      const level = JsonFields.of(entry, `bids[${index}]`);
      kept.push([readDecimal(level.raw('price'), 'price'), readDecimal(level.raw('amount'), 'amount')]);
    } catch {
      problems++;
    }
  });
  return { kept, problems };
}

const value = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '0.50',
    '"2.5"',
    '1e-8',
    '2E3',
    '-1',
    '"x"',
    '""',
    'null',
    'true',
    '1e400',
    '007',
  ),
  fc.double({ min: 0, max: 1e12, noNaN: true }).map(String),
);

describe('readPriceLevels', () => {
  it('keeps exactly the levels the checked read accepts, and notes one problem per level it rejects', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.tuple(value, value).map(([price, amount]) => `{"price":${price},"amount":${amount}}`),
            fc.constantFrom('[1,2]', '"level"', '{"price":1}'),
          ),
          { maxLength: 6 },
        ),
        (levels) => {
          const body = `{"bids":[${levels.join(',')}]}`;
          let parsed;
          try {
            parsed = parseExactJson(body);
          } catch {
            return; // '007' and the like are no JSON: nothing reaches the levels
          }
          const problems = new FieldProblems();
          const read = readPriceLevels(JsonFields.of(parsed, ''), 'bids', 'bid', problems);
          const expected = checkedLevels(body);
          expect(read.map(({ price, amount }) => [price, amount])).toEqual(expected.kept);
          expect(read.every((level) => level.side === 'bid')).toBe(true);
          expect(problems.messages).toHaveLength(expected.problems);
        },
      ),
    );
  });

  it('names a problem by its place in the body', () => {
    const problems = new FieldProblems();
    const fields = JsonFields.of(
      parseExactJson('{"item":{"asks":[{"price":1,"amount":1},{"price":"x","amount":1}]}}'),
      '',
    );
    expect(readPriceLevels(fields.object('item'), 'asks', 'ask', problems)).toEqual([
      { side: 'ask', price: '1', amount: '1' },
    ]);
    expect(problems.messages).toEqual([
      'item.asks[1].price: expected a non-negative decimal number, got "x"',
    ]);
  });
});
