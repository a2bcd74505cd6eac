import fc from 'fast-check';
import { BookSide, LevelUpdate, PriceLevel } from './book-update';
import { Decimal } from './decimal';
import { OrderBook } from './order-book';
import { SnapshotLoad } from './snapshot-load';

const bid = (price: string, amount: string): LevelUpdate => ({ side: 'bid', price, amount });
const ask = (price: string, amount: string): LevelUpdate => ({ side: 'ask', price, amount });
const bestFirst = (side: BookSide) => (a: string, b: string) =>
  (side === 'bid' ? -1 : 1) * new Decimal(a).cmp(new Decimal(b));

/** What the store holds: only ever changed through `takeChanges()`. */
class StoredBook {
  readonly sides = { bid: new Map<string, string>(), ask: new Map<string, string>() };

  take(book: OrderBook): void {
    const changes = book.takeChanges();
    for (const [side, levels] of [
      ['bid', changes.bids],
      ['ask', changes.asks],
    ] as const) {
      for (const [price, amount] of levels) {
        if (amount === '0') this.sides[side].delete(price);
        else this.sides[side].set(price, amount);
      }
    }
  }

  levels(side: BookSide): PriceLevel[] {
    return [...this.sides[side]].sort(([a], [b]) => bestFirst(side)(a, b));
  }
}

const price = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map((n) => `${n / 4}`),
  fc.integer({ min: 0, max: 9 }).map((n) => `0.10000000000000000${n}`),
);
const amount = fc.oneof(
  { weight: 1, arbitrary: fc.constant('0') },
  { weight: 4, arbitrary: fc.constantFrom('1', '2.5', '3') },
);
const update = fc.record({ side: fc.constantFrom<BookSide>('bid', 'ask'), price, amount });
/** Snapshots as the exchange sends them (ascending), best first, or in any order. */
const snapshotUpdates = fc
  .tuple(fc.array(update, { maxLength: 60 }), fc.constantFrom('ascending', 'descending', 'any'))
  .map(([updates, order]) =>
    order === 'any'
      ? updates
      : [...updates].sort(
          (a, b) => (order === 'ascending' ? 1 : -1) * new Decimal(a.price).cmp(new Decimal(b.price)),
        ),
  );

type History =
  { kind: 'apply'; update: LevelUpdate } | { kind: 'replace'; updates: LevelUpdate[] } | { kind: 'take' };
const history = fc.array(
  fc.oneof<fc.Arbitrary<History>[]>(
    update.map((u) => ({ kind: 'apply', update: u })),
    snapshotUpdates.map((updates) => ({ kind: 'replace', updates })),
    fc.constant({ kind: 'take' }),
  ),
  { maxLength: 40 },
);

function play(steps: readonly History[], book: OrderBook, store: StoredBook): void {
  steps.forEach((step, index) => {
    if (step.kind === 'apply') book.apply(step.update);
    else if (step.kind === 'replace') book.replace(step.updates, index, index);
    else store.take(book);
  });
}

describe('SnapshotLoad', () => {
  it('loads in slices exactly the book and the stored result of a load at once, with takes between slices', () => {
    fc.assert(
      fc.property(
        history,
        snapshotUpdates,
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.boolean(), { maxLength: 400 }),
        fc.array(update, { maxLength: 10 }),
        (before, snapshot, sliceLevels, takeAfterSlice, after) => {
          const atOnce = new OrderBook();
          const sliced = new OrderBook();
          const storedAtOnce = new StoredBook();
          const storedSliced = new StoredBook();
          play(before, atOnce, storedAtOnce);
          play(before, sliced, storedSliced);
          const levelsBefore = sliced.levels('bid').concat(sliced.levels('ask'));

          const load = sliced.startLoad(snapshot, sliceLevels);
          let loaded = load.step();
          for (let slice = 0; loaded === undefined; slice++) {
            // Until it is installed, the book keeps its levels and may be written as it is.
            expect(sliced.levels('bid').concat(sliced.levels('ask'))).toEqual(levelsBefore);
            if (takeAfterSlice[slice]) storedSliced.take(sliced);
            loaded = load.step();
          }
          sliced.install(load, 99, 5);
          atOnce.replace(snapshot, 99, 5);
          for (const book of [sliced, atOnce]) after.forEach((u) => book.apply(u));

          for (const side of ['bid', 'ask'] as const) {
            expect(sliced.levels(side)).toEqual(atOnce.levels(side));
            const expected = new Map<string, string>();
            for (const u of [...snapshot, ...after].filter((u) => u.side === side)) {
              if (u.amount === '0') expected.delete(u.price);
              else expected.set(u.price, u.amount);
            }
            expect(sliced.levels(side)).toEqual([...expected].sort(([a], [b]) => bestFirst(side)(a, b)));
          }
          expect(sliced.version).toBe(99);
          storedSliced.take(sliced);
          storedAtOnce.take(atOnce);
          for (const side of ['bid', 'ask'] as const) {
            expect(storedSliced.levels(side)).toEqual(sliced.levels(side));
            expect(storedAtOnce.levels(side)).toEqual(atOnce.levels(side));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('does a slice of at most the given number of level operations per step', () => {
    const levels = Array.from({ length: 1000 }, (_, i) => bid(`${i + 1}`, '1'));
    const count = (sliceLevels: number): number => {
      const load = new OrderBook().startLoad(levels, sliceLevels);
      let steps = 1;
      while (load.step() === undefined) steps++;
      return steps;
    };
    // 1,000 updates gathered, 1,000 prices keyed, 1,000 levels listed for the store: 3,000 operations.
    expect(count(100)).toBe(30);
    expect(count(2000)).toBe(2);
    expect(count(Infinity)).toBe(1);
    // Best first, as some feeds send it: reversed in slices too (500 swaps).
    const descending = new OrderBook().startLoad([...levels].reverse(), 100);
    let steps = 1;
    while (descending.step() === undefined) steps++;
    expect(steps).toBe(35);
  });

  it('refuses to install a load into a book that changed meanwhile', () => {
    const book = new OrderBook();
    const load = book.startLoad([bid('1', '1'), ask('2', '1')], 1);
    book.apply(bid('1.5', '1'));
    expect(() => book.install(load, 1, 0)).toThrow('the book changed while a snapshot was loading');
  });

  it('rejects a slice of no levels', () => {
    expect(() => new SnapshotLoad([], undefined, 0)).toThrow('at least one level');
  });
});
