import fc from 'fast-check';
import { canonicalDecimal, Decimal } from './decimal';
import { EMPTY_STATS, MarketStats } from './market-stats';
import { Trade } from './trade';
import { compareIntegerText, DAY_MS, TradeWindow } from './trade-window';

const T0 = 1_700_000_000_000;

function trade(id: string | number, time: number, price = '1', amount = '1'): Trade {
  return { id: `${id}`, instrument: 'btc_usdt', price, amount, side: 'buy', time };
}

/** The obvious computation: filter, sort exactly, sum with Decimal. */
function naiveStats(trades: readonly Trade[], now: number): MarketStats {
  const inWindow = trades
    .filter((t) => t.time > now - DAY_MS && t.time <= now)
    .sort((a, b) => a.time - b.time || Number(BigInt(a.id) - BigInt(b.id)));
  if (inWindow.length === 0) return EMPTY_STATS;
  const prices = inWindow.map((t) => new Decimal(t.price));
  const text = (value: InstanceType<typeof Decimal>): string => canonicalDecimal(value.toFixed());
  return {
    last: inWindow[inWindow.length - 1].price,
    open: inWindow[0].price,
    high: text(prices.reduce((a, b) => (a.gt(b) ? a : b))),
    low: text(prices.reduce((a, b) => (a.lt(b) ? a : b))),
    baseVolume: text(inWindow.reduce((sum, t) => sum.plus(new Decimal(t.amount)), new Decimal('0'))),
    quoteVolume: text(
      inWindow.reduce(
        (sum, t) => sum.plus(new Decimal(t.price).times(new Decimal(t.amount))),
        new Decimal('0'),
      ),
    ),
    tradeCount: inWindow.length,
    source: 'trades',
  };
}

const decimalText = fc
  .tuple(
    fc.bigInt({ min: 0n, max: 10n ** 16n }),
    fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }),
    fc.integer({ min: 0, max: 18 }),
  )
  .map(([integer, fraction, scale]) =>
    canonicalDecimal(
      scale === 0 ? `${integer}` : `${integer}.${fraction.toString().padStart(18, '0').slice(0, scale)}`,
    ),
  );

describe('compareIntegerText', () => {
  it('orders like the integers, beyond the range of Number and with leading zeros', () => {
    expect(compareIntegerText('9', '10')).toBe(-1);
    expect(compareIntegerText('0010', '9')).toBe(1);
    expect(compareIntegerText('007', '7')).toBe(0);
    expect(compareIntegerText('12345678901234567890123', '12345678901234567890122')).toBe(1);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        (a, b) => {
          expect(compareIntegerText(`${a}`, `${b}`)).toBe(a < b ? -1 : a > b ? 1 : 0);
        },
      ),
    );
  });
});

describe('TradeWindow', () => {
  it('gives the trades of a time range, oldest first, from both ends of equal times', () => {
    const window = new TradeWindow();
    window.add(
      [trade(4, T0 + 20), trade(1, T0), trade(2, T0 + 10), trade(3, T0 + 10), trade(5, T0 + 30)],
      T0 + 30,
    );
    const ids = (from: number, to: number) => window.tradesBetween(from, to).map((t) => t.id);
    expect(ids(T0 + 10, T0 + 30)).toEqual(['2', '3', '4']);
    expect(ids(T0 + 1, T0 + 11)).toEqual(['2', '3']);
    expect(ids(T0 - 100, T0 + 100)).toEqual(['1', '2', '3', '4', '5']);
    expect(ids(T0 + 31, T0 + 100)).toEqual([]);
    expect(ids(T0 + 10, T0 + 10)).toEqual([]);
    expect(new TradeWindow().tradesBetween(0, T0)).toEqual([]);
  });

  it('keeps a trade newer than now - 24h and at now, and ignores one exactly at now - 24h', () => {
    const window = new TradeWindow();
    const added = window.add(
      [trade(1, T0 - DAY_MS), trade(2, T0 - DAY_MS + 1), trade(3, T0), trade(4, T0 - 2 * DAY_MS)],
      T0,
    );
    expect(added.map((t) => t.id)).toEqual(['2', '3']);
    expect(window.stats(T0).tradeCount).toBe(2);
    expect(window.stats(T0 + 1).tradeCount).toBe(1);
    expect(window.stats(T0 + DAY_MS - 1).tradeCount).toBe(1);
    expect(window.stats(T0 + DAY_MS)).toEqual(EMPTY_STATS);
  });

  it('computes exact statistics', () => {
    const window = new TradeWindow();
    window.add([trade(1, T0, '10', '1'), trade(2, T0 + 1, '12', '0.5'), trade(3, T0 + 2, '9', '2')], T0 + 2);
    expect(window.stats(T0 + 2)).toEqual({
      last: '9',
      open: '10',
      high: '12',
      low: '9',
      baseVolume: '3.5',
      quoteVolume: '34',
      tradeCount: 3,
      source: 'trades',
    });
  });

  it('multiplies and sums without rounding', () => {
    const window = new TradeWindow();
    window.add(
      [
        trade(1, T0, '0.000000000000000001', '123456789012345678901'),
        trade(2, T0, '98765432109876.123456789012345678', '0.000000000000000001'),
      ],
      T0,
    );
    const stats = window.stats(T0);
    // 123.456789012345678901 + 0.000098765432109876123456789012345678, every digit kept.
    expect(stats.quoteVolume).toBe('123.456887777777788777123456789012345678');
    expect(stats.baseVolume).toBe('123456789012345678901.000000000000000001');
  });

  it('is empty without trades', () => {
    const window = new TradeWindow();
    expect(window.stats(T0)).toEqual(EMPTY_STATS);
    expect(window.nextExpiry()).toBeUndefined();
    expect(window.trades()).toEqual([]);
  });

  it('keeps the fields of a trade and nothing else a decoder put beside them', () => {
    const window = new TradeWindow();
    const decoded = { ...trade(1, T0, '2.5', '0.1'), instrument: 'a_long_instrument_name', row: [1, 2, 3] };
    window.add([decoded], T0);
    expect(window.trades()).toEqual([
      { id: '1', instrument: 'a_long_instrument_name', price: '2.5', amount: '0.1', side: 'buy', time: T0 },
    ]);
  });

  it('ignores a trade id seen before and returns only the trades added', () => {
    const window = new TradeWindow();
    expect(window.add([trade(1, T0, '5'), trade(1, T0 + 1, '6')], T0 + 1)).toEqual([trade(1, T0, '5')]);
    expect(window.add([trade(1, T0 + 2, '7'), trade(2, T0 + 2)], T0 + 2).map((t) => t.id)).toEqual(['2']);
    expect(window.has('1')).toBe(true);
    expect(window.size).toBe(2);
  });

  it('orders by time, then by numeric id, also for trades inserted late', () => {
    const window = new TradeWindow();
    window.add([trade(10, T0 + 5), trade(20, T0 + 9)], T0 + 10);
    const added = window.add(
      [trade(11, T0 + 5), trade(9, T0 + 5), trade(3, T0 + 1), trade(100, T0 + 9)],
      T0 + 10,
    );
    expect(added.map((t) => t.id)).toEqual(['3', '9', '11', '100']);
    expect(window.trades().map((t) => t.id)).toEqual(['3', '9', '10', '11', '20', '100']);
    expect(window.stats(T0 + 10).open).toBe('1');
  });

  it('drops what left the window, tells when the next trade leaves, and returns the cut-off', () => {
    const window = new TradeWindow();
    window.add([trade(1, T0), trade(2, T0 + 100), trade(3, T0 + 200)], T0 + 200);
    expect(window.nextExpiry()).toBe(T0 + DAY_MS);
    expect(window.expire(T0 + DAY_MS + 100)).toBe(T0 + 100);
    expect(window.trades().map((t) => t.id)).toEqual(['3']);
    expect(window.has('1')).toBe(false);
    expect(window.nextExpiry()).toBe(T0 + 200 + DAY_MS);
  });

  it('follows high and low as the extreme trades leave', () => {
    const window = new TradeWindow();
    const prices = ['5', '9', '1', '7', '3', '8', '2'];
    window.add(
      prices.map((price, i) => trade(i, T0 + i, price)),
      T0 + prices.length,
    );
    const seen: Array<[string, string]> = [];
    for (let i = 0; i < prices.length; i++) {
      const stats = window.stats(T0 + DAY_MS + i - 1);
      seen.push([stats.high, stats.low]);
    }
    const expected = prices.map((_, i) => {
      const rest = prices.slice(i).map(Number);
      return [`${Math.max(...rest)}`, `${Math.min(...rest)}`];
    });
    expect(seen).toEqual(expected);
  });

  it('leaves out trades stamped after now until their time comes', () => {
    const window = new TradeWindow();
    window.add([trade(1, T0, '10', '1'), trade(2, T0 + 50, '20', '1')], T0);
    expect(window.stats(T0)).toMatchObject({ last: '10', high: '10', tradeCount: 1, baseVolume: '1' });
    expect(window.stats(T0 + 50)).toMatchObject({ last: '20', high: '20', tradeCount: 2, baseVolume: '2' });
  });

  type Step =
    | { kind: 'add'; trades: Array<{ id: bigint; offset: number; price: string; amount: string }> }
    | { kind: 'advance'; by: number }
    | { kind: 'expire' }
    | { kind: 'stats' };

  const offset = fc.oneof(
    fc.constantFrom(0, 1, -1, -DAY_MS, -DAY_MS + 1, -DAY_MS - 1, 2),
    fc.integer({ min: -DAY_MS - 1000, max: 0 }),
  );
  const step: fc.Arbitrary<Step> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .array(
          fc.record({
            id: fc.oneof(
              fc.bigInt({ min: 0n, max: 60n }),
              fc.bigInt({ min: 10n ** 25n, max: 10n ** 25n + 20n }),
            ),
            offset,
            price: decimalText,
            amount: decimalText,
          }),
          { maxLength: 8 },
        )
        .map((trades) => ({ kind: 'add' as const, trades })),
    },
    {
      weight: 3,
      arbitrary: fc
        .oneof(fc.constantFrom(0, 1, DAY_MS, DAY_MS - 1), fc.integer({ min: 0, max: DAY_MS / 4 }))
        .map((by) => ({ kind: 'advance' as const, by })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'expire' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'stats' as const }) },
  );

  it('agrees with a naive recomputation over random trades, duplicates, times and expiries', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const window = new TradeWindow();
        const model = new Map<string, Trade>();
        let now = T0;
        const forget = (): void => {
          for (const [id, t] of model) if (t.time <= now - DAY_MS) model.delete(id);
        };
        const sorted = (): Trade[] =>
          [...model.values()].sort((a, b) => a.time - b.time || Number(BigInt(a.id) - BigInt(b.id)));

        for (const s of steps) {
          if (s.kind === 'add') {
            const batch = s.trades.map((t) => trade(`${t.id}`, now + t.offset, t.price, t.amount));
            const accepted: Trade[] = [];
            for (const t of batch) {
              if (t.time > now - DAY_MS && !model.has(t.id)) {
                model.set(t.id, t);
                accepted.push(t);
              }
            }
            const added = window.add(batch, now);
            expect(added).toEqual(
              accepted.sort((a, b) => a.time - b.time || Number(BigInt(a.id) - BigInt(b.id))),
            );
          } else if (s.kind === 'advance') {
            now += s.by;
          } else if (s.kind === 'expire') {
            expect(window.expire(now)).toBe(now - DAY_MS);
            forget();
            expect(window.trades()).toEqual(sorted());
          } else {
            expect(window.stats(now)).toEqual(naiveStats([...model.values()], now));
            forget();
            expect(window.trades()).toEqual(sorted());
            const oldest = sorted()[0];
            expect(window.nextExpiry()).toBe(oldest === undefined ? undefined : oldest.time + DAY_MS);
          }
        }
        expect(window.stats(now)).toEqual(naiveStats([...model.values()], now));
      }),
      { numRuns: 300 },
    );
  });
});
