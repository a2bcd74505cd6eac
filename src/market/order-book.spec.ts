import fc from 'fast-check';
import { BookSide, LevelUpdate, PriceLevel } from './book-update';
import { canonicalDecimal, Decimal } from './decimal';
import { OrderBook } from './order-book';

const bid = (price: string, amount: string): LevelUpdate => ({ side: 'bid', price, amount });
const ask = (price: string, amount: string): LevelUpdate => ({ side: 'ask', price, amount });

/** The obvious book: a Map per side, sorted exactly with Decimal when read. */
class NaiveBook {
  readonly sides = { bid: new Map<string, string>(), ask: new Map<string, string>() };

  apply(update: LevelUpdate): void {
    if (new Decimal(update.amount).eq(new Decimal('0'))) this.sides[update.side].delete(update.price);
    else this.sides[update.side].set(update.price, update.amount);
  }

  replace(updates: readonly LevelUpdate[]): void {
    this.sides.bid.clear();
    this.sides.ask.clear();
    updates.forEach((update) => this.apply(update));
  }

  levels(side: BookSide): PriceLevel[] {
    const sign = side === 'bid' ? -1 : 1;
    return [...this.sides[side].entries()].sort(
      ([a], [b]) => sign * new Decimal(a).cmp(new Decimal(b)),
    ) as PriceLevel[];
  }
}

/**
 * Prices that collide often: ordinary ones, 18-decimal ones differing only in the last two digits (a float
 * cannot tell most of them apart), integers too large for a float to hold exactly, and beyond the float range.
 */
const price = fc
  .oneof(
    fc.integer({ min: 1, max: 60 }).map((n) => `${n / 4}`),
    fc
      .tuple(fc.constantFrom('12345678', '0', '999'), fc.integer({ min: 0, max: 40 }))
      .map(([integer, last]) => `${integer}.1234567890123456${String(last).padStart(2, '0')}`),
    fc.bigInt({ min: 0n, max: 30n }).map((n) => `${10n ** 25n + n}`),
    fc.integer({ min: 0, max: 9 }).map((n) => `1${'0'.repeat(320)}${n}`),
  )
  .map(canonicalDecimal);

const amount = fc.oneof(
  { weight: 1, arbitrary: fc.constant('0') },
  { weight: 3, arbitrary: fc.constantFrom('1', '0.5', '2.000000000000000001', '123456789012345678901234') },
);

const update = fc.record({ side: fc.constantFrom<BookSide>('bid', 'ask'), price, amount });

type Step =
  { kind: 'apply'; update: LevelUpdate } | { kind: 'replace'; updates: LevelUpdate[] } | { kind: 'take' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 20, arbitrary: update.map((u) => ({ kind: 'apply' as const, update: u })) },
  {
    weight: 1,
    arbitrary: fc.array(update, { maxLength: 30 }).map((updates) => ({ kind: 'replace' as const, updates })),
  },
  { weight: 3, arbitrary: fc.constant({ kind: 'take' as const }) },
);

function expectSameBook(book: OrderBook, model: NaiveBook): void {
  for (const side of ['bid', 'ask'] as const) {
    const expected = model.levels(side);
    expect(book.levels(side)).toEqual(expected);
    expect(book.size(side)).toBe(expected.length);
    expect(book.best(side)).toEqual(expected[0]);
  }
}

describe('OrderBook', () => {
  it('matches a naive model over random updates, snapshots and reads', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const book = new OrderBook();
        const model = new NaiveBook();
        steps.forEach((s, index) => {
          if (s.kind === 'apply') {
            book.apply(s.update);
            model.apply(s.update);
          } else if (s.kind === 'replace') {
            book.replace(s.updates, index, index);
            model.replace(s.updates);
          } else {
            book.takeChanges();
          }
          if (index % 25 === 0) expectSameBook(book, model);
        });
        expectSameBook(book, model);
        const bestBid = model.levels('bid')[0];
        const bestAsk = model.levels('ask')[0];
        const crossed =
          bestBid !== undefined &&
          bestAsk !== undefined &&
          new Decimal(bestBid[0]).gte(new Decimal(bestAsk[0]));
        expect(book.isCrossed()).toBe(crossed);
      }),
      { numRuns: 300 },
    );
  });

  it('reports changes that rebuild the same book in a copy that only sees the changes', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const book = new OrderBook();
        const copy = new NaiveBook();
        const sync = (): void => {
          const changes = book.takeChanges();
          for (const side of ['bid', 'ask'] as const) {
            const levels = side === 'bid' ? changes.bids : changes.asks;
            const prices = levels.map(([p]) => p);
            // Each change once, at its amount now.
            if (!changes.replaced) expect(new Set(prices).size).toBe(prices.length);
            // After a snapshot a price may come twice: the later entry, applied last, is the amount now.
            const last = new Map(levels);
            for (const [p, a] of last) expect(a).toBe(book.amount(side, p) ?? '0');
            for (const [p, a] of levels) copy.apply({ side, price: p, amount: a });
          }
          expectSameBook(book, copy);
        };
        steps.forEach((s, index) => {
          if (s.kind === 'apply') book.apply(s.update);
          else if (s.kind === 'replace') book.replace(s.updates, index, index);
          else sync();
        });
        sync();
      }),
      { numRuns: 300 },
    );
  });

  it('reports exactly the prices that changed: the applied ones, and after a snapshot every price before and after it', () => {
    const byPrice = (side: BookSide) => (a: string, b: string) =>
      (side === 'bid' ? -1 : 1) * new Decimal(a).cmp(new Decimal(b));
    // Snapshots as the exchange sends them (ascending), reversed, or in any order.
    const ordered = (updates: LevelUpdate[], order: 'ascending' | 'descending' | 'any') =>
      order === 'any'
        ? updates
        : [...updates].sort(
            (a, b) => (order === 'ascending' ? 1 : -1) * new Decimal(a.price).cmp(new Decimal(b.price)),
          );
    const steps = fc.array(
      fc.oneof(
        step,
        fc
          .tuple(
            fc.array(update, { maxLength: 40 }),
            fc.constantFrom('ascending', 'descending', 'any') as fc.Arbitrary<
              'ascending' | 'descending' | 'any'
            >,
          )
          .map(([updates, order]) => ({ kind: 'replace' as const, updates: ordered(updates, order) })),
      ),
      { maxLength: 300 },
    );
    fc.assert(
      fc.property(steps, (steps) => {
        const book = new OrderBook();
        const model = new NaiveBook();
        const changed = { bid: new Set<string>(), ask: new Set<string>() };
        let replaced = false;
        const take = (): void => {
          const changes = book.takeChanges();
          expect(changes.replaced).toBe(replaced);
          for (const side of ['bid', 'ask'] as const) {
            const levels = side === 'bid' ? changes.bids : changes.asks;
            if (!replaced) {
              expect([...levels].sort(([a], [b]) => byPrice(side)(a, b))).toEqual(
                [...changed[side]].sort(byPrice(side)).map((p) => [p, model.sides[side].get(p) ?? '0']),
              );
              continue;
            }
            // The last entry of each price is its amount now, and the prices are exactly the changed ones.
            const last = [...new Map(levels)].sort(([a], [b]) => byPrice(side)(a, b));
            expect(last).toEqual(
              [...changed[side]].sort(byPrice(side)).map((p) => [p, model.sides[side].get(p) ?? '0']),
            );
          }
          changed.bid.clear();
          changed.ask.clear();
          replaced = false;
        };
        steps.forEach((s, index) => {
          if (s.kind === 'apply') {
            const before = model.sides[s.update.side].get(s.update.price);
            model.apply(s.update);
            if (model.sides[s.update.side].get(s.update.price) !== before)
              changed[s.update.side].add(s.update.price);
            book.apply(s.update);
          } else if (s.kind === 'replace') {
            for (const side of ['bid', 'ask'] as const)
              for (const p of model.sides[side].keys()) changed[side].add(p);
            model.replace(s.updates);
            for (const side of ['bid', 'ask'] as const)
              for (const p of model.sides[side].keys()) changed[side].add(p);
            replaced = true;
            book.replace(s.updates, index, index);
            expectSameBook(book, model);
          } else {
            take();
          }
        });
        take();
      }),
      { numRuns: 300 },
    );
  });

  it('keeps prices apart that differ only in the 18th decimal', () => {
    const book = new OrderBook();
    book.apply(bid('12345678.123456789012345677', '1'));
    book.apply(bid('12345678.123456789012345679', '3'));
    book.apply(bid('12345678.123456789012345678', '2'));
    expect(book.levels('bid')).toEqual([
      ['12345678.123456789012345679', '3'],
      ['12345678.123456789012345678', '2'],
      ['12345678.123456789012345677', '1'],
    ]);
    book.apply(bid('12345678.123456789012345678', '0'));
    expect(book.levels('bid').map(([p]) => p)).toEqual([
      '12345678.123456789012345679',
      '12345678.123456789012345677',
    ]);
  });

  it('sorts bids descending and asks ascending, best first, and limits the depth', () => {
    const book = new OrderBook();
    book.replace(
      [bid('99', '1'), bid('101', '2'), bid('100', '3'), ask('103', '4'), ask('102', '5')],
      7,
      1000,
    );
    expect(book.levels('bid')).toEqual([
      ['101', '2'],
      ['100', '3'],
      ['99', '1'],
    ]);
    expect(book.levels('ask')).toEqual([
      ['102', '5'],
      ['103', '4'],
    ]);
    expect(book.levels('bid', 2)).toEqual([
      ['101', '2'],
      ['100', '3'],
    ]);
    expect(book.levels('ask', 0)).toEqual([]);
    expect(book.levels('ask', 10)).toHaveLength(2);
    expect(book.version).toBe(7);
    expect(book.updatedAt).toBe(1000);
  });

  it('sets absolute amounts and removes a level on amount "0"', () => {
    const book = new OrderBook();
    book.apply(ask('5', '1'));
    book.apply(ask('5', '2.5'));
    expect(book.best('ask')).toEqual(['5', '2.5']);
    book.apply(ask('5', '0'));
    expect(book.best('ask')).toBeUndefined();
    expect(book.size('ask')).toBe(0);
    book.apply(ask('6', '0'));
    expect(book.size('ask')).toBe(0);
  });

  it('stays consistent while the price band drifts and removed levels are purged in bulk', () => {
    const book = new OrderBook();
    const model = new NaiveBook();
    let state = 7;
    const next = (): number => (state = (state * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 40_000; i++) {
      // A band of 60 prices that moves up by one every 8 updates: old prices are removed for good.
      const base = Math.floor(i / 8);
      const side = next() % 2 === 0 ? 'bid' : 'ask';
      const offset = next() % 60;
      const amount = offset < 2 ? '0' : next() % 2 === 0 ? '1' : '0';
      const update: LevelUpdate = { side, price: `${base + offset}.5`, amount };
      book.apply(update);
      model.apply(update);
      for (const stale of [`${base - 1}.5`, `${base - 2}.5`]) {
        book.apply({ side, price: stale, amount: '0' });
        model.apply({ side, price: stale, amount: '0' });
      }
      if (i % 2000 === 0) expectSameBook(book, model);
    }
    expectSameBook(book, model);
  });

  it('inserts and removes a level at every depth of a long side, near the touch and far from it', () => {
    const prices = Array.from({ length: 200 }, (_, i) => `${100 + i}`);
    for (const side of ['bid', 'ask'] as const) {
      const book = new OrderBook();
      const model = new NaiveBook();
      for (const price of prices) {
        book.apply({ side, price, amount: '1' });
        model.apply({ side, price, amount: '1' });
      }
      for (const price of prices) {
        for (const update of [
          { side, price, amount: '0' },
          { side, price: `${price}.5`, amount: '2' },
          { side, price, amount: '3' },
          { side, price: `${price}.5`, amount: '0' },
        ]) {
          book.apply(update);
          model.apply(update);
          expect(book.levels(side)).toEqual(model.levels(side));
        }
      }
    }
  });

  it('grows past its initial capacity', () => {
    const book = new OrderBook();
    for (let i = 1; i <= 5000; i++) book.apply(bid(`${i}`, '1'));
    for (let i = 1; i <= 5000; i += 2) book.apply(bid(`${i}`, '0'));
    const prices = book.levels('bid').map(([p]) => Number(p));
    expect(prices).toHaveLength(2500);
    expect(prices[0]).toBe(5000);
    expect(prices.every((p, i) => i === 0 || p < prices[i - 1])).toBe(true);
  });

  describe('crossed detection', () => {
    it('is crossed when the best bid is above the best ask', () => {
      const book = new OrderBook();
      book.replace([bid('100', '1'), ask('101', '1')], 1, 0);
      expect(book.isCrossed()).toBe(false);
      book.apply(bid('102', '1'));
      expect(book.isCrossed()).toBe(true);
      book.apply(bid('102', '0'));
      expect(book.isCrossed()).toBe(false);
    });

    it('treats a locked book (best bid = best ask) as crossed', () => {
      const book = new OrderBook();
      book.replace([bid('100', '1'), ask('100', '2')], 1, 0);
      expect(book.isCrossed()).toBe(true);
    });

    it('tells apart prices a float rounds to the same value', () => {
      const book = new OrderBook();
      book.replace([bid('0.100000000000000001', '1'), ask('0.100000000000000002', '1')], 1, 0);
      expect(book.isCrossed()).toBe(false);
      book.apply(bid('0.100000000000000003', '1'));
      expect(book.isCrossed()).toBe(true);
    });

    it('is never crossed with an empty side', () => {
      const book = new OrderBook();
      book.apply(bid('100', '1'));
      expect(book.isCrossed()).toBe(false);
    });
  });

  describe('change tracking', () => {
    it('returns the final amount per price once and then forgets it', () => {
      const book = new OrderBook();
      book.apply(bid('10', '1'));
      book.apply(bid('10', '2'));
      book.apply(ask('11', '1'));
      book.apply(bid('9', '1'));
      expect(book.takeChanges()).toEqual({
        replaced: false,
        bids: [
          ['10', '2'],
          ['9', '1'],
        ],
        asks: [['11', '1']],
      });
      expect(book.takeChanges()).toEqual({ replaced: false, bids: [], asks: [] });
    });

    it('reports "0" for a removed level, also one added and removed between takes', () => {
      const book = new OrderBook();
      book.apply(bid('10', '1'));
      book.takeChanges();
      book.apply(bid('10', '0'));
      book.apply(ask('12', '1'));
      book.apply(ask('12', '0'));
      expect(book.takeChanges()).toEqual({ replaced: false, bids: [['10', '0']], asks: [['12', '0']] });
    });

    it('ignores updates that change nothing', () => {
      const book = new OrderBook();
      book.apply(bid('10', '1'));
      book.takeChanges();
      book.apply(bid('10', '1'));
      book.apply(ask('12', '0'));
      expect(book.takeChanges()).toEqual({ replaced: false, bids: [], asks: [] });
    });

    it('flags a snapshot and covers the levels it removed', () => {
      const book = new OrderBook();
      book.apply(bid('10', '1'));
      book.apply(ask('12', '1'));
      book.takeChanges();
      book.replace([bid('9', '2'), ask('12', '1')], 5, 0);
      const changes = book.takeChanges();
      expect(changes.replaced).toBe(true);
      expect(changes.bids).toEqual([
        ['9', '2'],
        ['10', '0'],
      ]);
      expect(changes.asks).toEqual([['12', '1']]);
    });

    it('records nothing when tracking is off', () => {
      const book = new OrderBook({ trackChanges: false });
      book.apply(bid('10', '1'));
      expect(book.takeChanges()).toEqual({ replaced: false, bids: [], asks: [] });
    });
  });

  describe('firstDifferenceFrom', () => {
    it('finds a difference exactly when the book does not hold the levels a replace would give', () => {
      // As exchanges send them (each price once, no removals, sorted either way), or anything at all.
      const exchangeLike = fc
        .tuple(
          fc.uniqueArray(update, { maxLength: 20, selector: (u) => `${u.side} ${u.price}` }),
          fc.constantFrom(1, -1),
        )
        .map(([updates, direction]) =>
          updates
            .filter((u) => u.amount !== '0')
            .sort((a, b) => direction * new Decimal(a.price).cmp(new Decimal(b.price))),
        );
      fc.assert(
        fc.property(
          fc.oneof(exchangeLike, fc.array(update, { maxLength: 20 })),
          fc.array(update, { maxLength: 5 }),
          (snapshot, after) => {
            const book = OrderBook.fromLevels(snapshot, 1, 0);
            after.forEach((u) => book.apply(u));
            const same = OrderBook.fromLevels(snapshot, 1, 0);
            const holdsSame = (['bid', 'ask'] as const).every(
              (side) => JSON.stringify(book.levels(side)) === JSON.stringify(same.levels(side)),
            );
            const difference = book.firstDifferenceFrom(snapshot);
            expect(difference === undefined).toBe(holdsSame);
            if (difference !== undefined) {
              expect(book.amount(difference.side, difference.price)).toBe(difference.amount);
              expect(same.amount(difference.side, difference.price)).toBe(difference.expected);
            }
          },
        ),
        { numRuns: 1000 },
      );
    });

    it('finds a different amount, a missing level and an extra level', () => {
      const expected = [bid('10', '1'), ask('11', '1'), bid('8', '3'), bid('8', '0')];
      const same = OrderBook.fromLevels([ask('11', '1'), bid('10', '1')], 1, 0);
      expect(same.firstDifferenceFrom(expected)).toBeUndefined();

      const otherAmount = OrderBook.fromLevels([bid('10', '2'), ask('11', '1')], 1, 0);
      expect(otherAmount.firstDifferenceFrom(expected)).toEqual({
        side: 'bid',
        price: '10',
        amount: '2',
        expected: '1',
      });

      const missing = OrderBook.fromLevels([bid('10', '1')], 1, 0);
      expect(missing.firstDifferenceFrom(expected)).toEqual({
        side: 'ask',
        price: '11',
        amount: undefined,
        expected: '1',
      });

      const extra = OrderBook.fromLevels([bid('10', '1'), bid('9', '1'), ask('11', '1')], 1, 0);
      expect(extra.firstDifferenceFrom(expected)).toEqual({
        side: 'bid',
        price: '9',
        amount: '1',
        expected: undefined,
      });
    });
  });
});

describe('OrderBook.priceAtDepth', () => {
  it('counts from the best level of each side, undefined past the end', () => {
    const book = OrderBook.fromLevels(
      [
        { side: 'bid', price: '99', amount: '1' },
        { side: 'bid', price: '100', amount: '1' },
        { side: 'ask', price: '102', amount: '1' },
        { side: 'ask', price: '101', amount: '1' },
      ],
      1,
      0,
    );
    expect([0, 1, 2].map((depth) => book.priceAtDepth('bid', depth))).toEqual(['100', '99', undefined]);
    expect([0, 1, 2].map((depth) => book.priceAtDepth('ask', depth))).toEqual(['101', '102', undefined]);
  });
});
