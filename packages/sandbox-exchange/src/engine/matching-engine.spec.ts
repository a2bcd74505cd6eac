import fc from 'fast-check';
import { LevelAction } from './level-change';
import { MatchingEngine } from './matching-engine';
import { OrderRequest } from './order';
import { Side } from './side';

function engine(): MatchingEngine {
  let id = 0;
  return new MatchingEngine(() => ++id);
}

const limit = (side: Side, price: bigint, amount: bigint, accountId = 1): OrderRequest => ({
  accountId,
  side,
  type: 'limit',
  price,
  amount,
  timeInForce: 'gtc',
});

describe('MatchingEngine', () => {
  it('matches the best price first and, at one price, the oldest order first', () => {
    const book = engine();
    const late = book.place(limit(Side.Sell, 101n, 5n, 1), 0).order;
    const early = book.place(limit(Side.Sell, 100n, 5n, 2), 0).order;
    const later = book.place(limit(Side.Sell, 100n, 5n, 3), 0).order;

    const execution = book.place(limit(Side.Buy, 101n, 12n, 9), 0);

    expect(execution.fills.map((f) => [f.maker.id, f.price, f.amount])).toEqual([
      [early.id, 100n, 5n],
      [later.id, 100n, 5n],
      [late.id, 101n, 2n],
    ]);
    expect(execution.status).toBe('filled');
    expect(book.order(late.id)?.remaining).toBe(3n);
    expect([...book.levels(Side.Sell)]).toEqual([{ price: 101n, amount: 3n, orders: 1 }]);
  });

  it('rests the unfilled part of a gtc limit order and reports each touched level once', () => {
    const book = engine();
    book.place(limit(Side.Sell, 100n, 4n), 0);
    const execution = book.place(limit(Side.Buy, 102n, 10n), 0);

    expect(execution.status).toBe('working');
    expect(execution.order.remaining).toBe(6n);
    expect(execution.changes).toEqual([
      { side: Side.Sell, price: 100n, amount: 0n, orders: 0, action: LevelAction.Delete },
      { side: Side.Buy, price: 102n, amount: 6n, orders: 1, action: LevelAction.New },
    ]);
    expect(book.bestPrice(Side.Buy)).toBe(102n);
    expect(book.bestPrice(Side.Sell)).toBeUndefined();
  });

  it('does not trade a limit order that does not cross', () => {
    const book = engine();
    book.place(limit(Side.Sell, 100n, 4n), 0);
    const execution = book.place(limit(Side.Buy, 99n, 4n), 0);
    expect(execution.fills).toHaveLength(0);
    expect(execution.changes).toEqual([
      { side: Side.Buy, price: 99n, amount: 4n, orders: 1, action: LevelAction.New },
    ]);
  });

  it('adds to an existing level as an update', () => {
    const book = engine();
    book.place(limit(Side.Buy, 99n, 4n), 0);
    const execution = book.place(limit(Side.Buy, 99n, 3n), 0);
    expect(execution.changes).toEqual([
      { side: Side.Buy, price: 99n, amount: 7n, orders: 2, action: LevelAction.Update },
    ]);
  });

  it('cancels the rest of an ioc order instead of resting it', () => {
    const book = engine();
    book.place(limit(Side.Sell, 100n, 4n), 0);
    const execution = book.place({ ...limit(Side.Buy, 100n, 10n), timeInForce: 'ioc' }, 0);
    expect(execution.status).toBe('cancelled');
    expect(execution.fills.map((f) => f.amount)).toEqual([4n]);
    expect(execution.order.remaining).toBe(6n);
    expect(book.levelCount(Side.Buy)).toBe(0);
    expect(book.restingOrderCount).toBe(0);
  });

  it('kills a fok order that cannot fill in full and leaves the book untouched', () => {
    const book = engine();
    book.place(limit(Side.Sell, 100n, 4n), 0);
    book.place(limit(Side.Sell, 105n, 4n), 0);
    const killed = book.place({ ...limit(Side.Buy, 100n, 5n), timeInForce: 'fok' }, 0);
    expect(killed.status).toBe('cancelled');
    expect(killed.fills).toHaveLength(0);
    expect(killed.changes).toHaveLength(0);
    expect([...book.levels(Side.Sell)].map((l) => l.amount)).toEqual([4n, 4n]);

    const filled = book.place({ ...limit(Side.Buy, 105n, 5n), timeInForce: 'fok' }, 0);
    expect(filled.status).toBe('filled');
    expect(filled.fills.map((f) => [f.price, f.amount])).toEqual([
      [100n, 4n],
      [105n, 1n],
    ]);
  });

  it('sweeps the book with a market order and drops what finds no liquidity', () => {
    const book = engine();
    book.place(limit(Side.Buy, 99n, 2n), 0);
    book.place(limit(Side.Buy, 50n, 2n), 0);
    const execution = book.place(
      { accountId: 1, side: Side.Sell, type: 'market', amount: 5n, timeInForce: 'gtc' },
      0,
    );
    expect(execution.status).toBe('cancelled');
    expect(execution.fills.map((f) => f.price)).toEqual([99n, 50n]);
    expect(book.levelCount(Side.Buy)).toBe(0);
  });

  it('cancels a resting order and removes an emptied level', () => {
    const book = engine();
    const first = book.place(limit(Side.Buy, 99n, 2n), 0).order;
    const second = book.place(limit(Side.Buy, 99n, 3n), 0).order;
    expect(book.cancel(first.id)?.changes).toEqual([
      { side: Side.Buy, price: 99n, amount: 3n, orders: 1, action: LevelAction.Update },
    ]);
    expect(book.cancel(second.id)?.changes).toEqual([
      { side: Side.Buy, price: 99n, amount: 0n, orders: 0, action: LevelAction.Delete },
    ]);
    expect(book.cancel(second.id)).toBeUndefined();
    expect(book.levelCount(Side.Buy)).toBe(0);
  });

  it('conserves amounts, never crosses and keeps levels equal to the sum of their orders', () => {
    const operation = fc.oneof(
      fc.record({
        kind: fc.constant('limit' as const),
        side: fc.constantFrom(Side.Buy, Side.Sell),
        price: fc.bigInt({ min: 90n, max: 110n }),
        amount: fc.bigInt({ min: 1n, max: 20n }),
        tif: fc.constantFrom('gtc' as const, 'ioc' as const, 'fok' as const),
      }),
      fc.record({
        kind: fc.constant('market' as const),
        side: fc.constantFrom(Side.Buy, Side.Sell),
        amount: fc.bigInt({ min: 1n, max: 30n }),
      }),
      fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 200 }), (operations) => {
        const book = engine();
        for (const op of operations) {
          if (op.kind === 'cancel') {
            const ids = [...book.restingOrders()].map((o) => o.id);
            if (ids.length > 0) book.cancel(ids[op.pick % ids.length]);
            continue;
          }
          const request: OrderRequest =
            op.kind === 'limit'
              ? {
                  accountId: 1,
                  side: op.side,
                  type: 'limit',
                  price: op.price,
                  amount: op.amount,
                  timeInForce: op.tif,
                }
              : { accountId: 1, side: op.side, type: 'market', amount: op.amount, timeInForce: 'ioc' };
          const execution = book.place(request, 0);
          const filled = execution.fills.reduce((sum, fill) => sum + fill.amount, 0n);
          expect(filled + execution.order.remaining).toBe(request.amount);
          const bid = book.bestPrice(Side.Buy);
          const ask = book.bestPrice(Side.Sell);
          if (bid !== undefined && ask !== undefined) expect(bid < ask).toBe(true);
        }
        for (const side of [Side.Buy, Side.Sell]) {
          const levels = [...book.levels(side)];
          expect(book.totalAmount(side)).toBe(levels.reduce((sum, level) => sum + level.amount, 0n));
          for (let i = 1; i < levels.length; i++) {
            expect(
              side === Side.Buy
                ? levels[i - 1].price > levels[i].price
                : levels[i - 1].price < levels[i].price,
            ).toBe(true);
          }
          for (const level of levels) {
            const orders = [...book.restingOrders()].filter(
              (o) => o.side === side && o.price === level.price,
            );
            expect(orders.reduce((sum, o) => sum + o.remaining, 0n)).toBe(level.amount);
            expect(orders).toHaveLength(level.orders);
          }
        }
      }),
    );
  });
});

describe('MatchingEngine with matching stopped', () => {
  it('rests every gtc limit order at its price, so the book crosses, and cancels what cannot rest unfilled', () => {
    const book = engine();
    book.place(limit(Side.Sell, 100n, 5n), 0);
    book.stopMatching();

    const crossing = book.place(limit(Side.Buy, 102n, 3n), 0);
    expect(crossing).toMatchObject({ status: 'working', fills: [] });
    expect(crossing.changes).toEqual([
      { side: Side.Buy, price: 102n, amount: 3n, orders: 1, action: LevelAction.New },
    ]);
    expect(book.bestPrice(Side.Buy)).toBe(102n);
    expect(book.bestPrice(Side.Sell)).toBe(100n);

    for (const request of [
      { accountId: 1, side: Side.Buy, type: 'market', amount: 1n, timeInForce: 'ioc' },
      { accountId: 1, side: Side.Buy, type: 'market', amount: 1n, timeInForce: 'fok' },
      { ...limit(Side.Buy, 101n, 1n), timeInForce: 'ioc' },
      { ...limit(Side.Sell, 99n, 1n), timeInForce: 'fok' },
    ] satisfies OrderRequest[]) {
      const execution = book.place(request, 0);
      expect(execution).toMatchObject({ status: 'cancelled', fills: [], changes: [] });
      expect(execution.order.remaining).toBe(1n);
    }
    expect(book.totalAmount(Side.Buy)).toBe(3n);
    expect(book.totalAmount(Side.Sell)).toBe(5n);
    expect(book.restingOrderCount).toBe(2);
  });

  it('uncrosses on resuming: best bid against best ask, oldest first, at the price of the order that rested first', () => {
    const book = engine();
    book.stopMatching();
    const a = book.place(limit(Side.Sell, 100n, 5n), 0).order;
    const b = book.place(limit(Side.Sell, 101n, 5n), 0).order;
    const c = book.place(limit(Side.Buy, 102n, 6n), 0).order;
    const d = book.place(limit(Side.Buy, 101n, 4n), 0).order;
    const e = book.place(limit(Side.Sell, 99n, 2n), 0).order;
    const f = book.place(limit(Side.Buy, 98n, 1n), 0).order;
    expect(book.matchingStopped).toBe(true);

    const { fills, changes } = book.resumeMatching();

    expect(book.matchingStopped).toBe(false);
    expect(fills.map((fill) => [fill.maker.id, fill.taker.id, fill.price, fill.amount])).toEqual([
      // c (102) rested before e (99): c is the maker, the trade at its price
      [c.id, e.id, 102n, 2n],
      [a.id, c.id, 100n, 4n],
      [a.id, d.id, 100n, 1n],
      [b.id, d.id, 101n, 3n],
    ]);
    expect(changes).toEqual([
      { side: Side.Buy, price: 102n, amount: 0n, orders: 0, action: LevelAction.Delete },
      { side: Side.Sell, price: 99n, amount: 0n, orders: 0, action: LevelAction.Delete },
      { side: Side.Sell, price: 100n, amount: 0n, orders: 0, action: LevelAction.Delete },
      { side: Side.Buy, price: 101n, amount: 0n, orders: 0, action: LevelAction.Delete },
      { side: Side.Sell, price: 101n, amount: 2n, orders: 1, action: LevelAction.Update },
    ]);
    expect([...book.levels(Side.Buy)]).toEqual([{ price: 98n, amount: 1n, orders: 1 }]);
    expect([...book.levels(Side.Sell)]).toEqual([{ price: 101n, amount: 2n, orders: 1 }]);
    expect([...book.restingOrders()].map((order) => order.id).sort()).toEqual([b.id, f.id].sort());
    expect(book.totalAmount(Side.Buy)).toBe(1n);
    expect(book.totalAmount(Side.Sell)).toBe(2n);

    // Matching again: an incoming order trades at once.
    expect(book.place(limit(Side.Buy, 101n, 2n), 0).status).toBe('filled');
  });

  it('changes nothing on resuming a book that did not cross', () => {
    const book = engine();
    book.stopMatching();
    book.place(limit(Side.Buy, 99n, 1n), 0);
    book.place(limit(Side.Sell, 100n, 1n), 0);
    expect(book.resumeMatching()).toEqual({ fills: [], changes: [] });
    expect(book.restingOrderCount).toBe(2);
  });

  it('conserves amounts through any flow while stopped and leaves the book uncrossed once resumed', () => {
    const operation = fc.oneof(
      fc.record({
        kind: fc.constant('limit' as const),
        side: fc.constantFrom(Side.Buy, Side.Sell),
        price: fc.bigInt({ min: 90n, max: 110n }),
        amount: fc.bigInt({ min: 1n, max: 20n }),
      }),
      fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('toggle' as const) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 150 }), (operations) => {
        const book = engine();
        const placed = new Map<number, bigint>();
        const filled = new Map<number, bigint>();
        const addFills = (
          fills: readonly { maker: { id: number }; taker: { id: number }; amount: bigint }[],
        ) => {
          for (const fill of fills) {
            for (const id of [fill.maker.id, fill.taker.id])
              filled.set(id, (filled.get(id) ?? 0n) + fill.amount);
          }
        };
        for (const op of operations) {
          if (op.kind === 'toggle') {
            if (book.matchingStopped) addFills(book.resumeMatching().fills);
            else book.stopMatching();
          } else if (op.kind === 'cancel') {
            const ids = [...book.restingOrders()].map((o) => o.id);
            if (ids.length > 0) book.cancel(ids[op.pick % ids.length]);
          } else {
            const execution = book.place(limit(op.side, op.price, op.amount), 0);
            placed.set(execution.order.id, op.amount);
            addFills(execution.fills);
          }
        }
        addFills(book.resumeMatching().fills);
        const bid = book.bestPrice(Side.Buy);
        const ask = book.bestPrice(Side.Sell);
        if (bid !== undefined && ask !== undefined) expect(bid < ask).toBe(true);
        for (const order of book.restingOrders()) {
          expect(order.remaining + (filled.get(order.id) ?? 0n)).toBe(placed.get(order.id));
        }
        for (const side of [Side.Buy, Side.Sell]) {
          const resting = [...book.restingOrders()].filter((o) => o.side === side);
          expect(book.totalAmount(side)).toBe(resting.reduce((sum, o) => sum + o.remaining, 0n));
          expect([...book.levels(side)].reduce((sum, level) => sum + level.amount, 0n)).toBe(
            book.totalAmount(side),
          );
        }
      }),
    );
  });
});
