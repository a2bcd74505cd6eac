import fc from 'fast-check';
import { Trade } from '../market/trade';
import { TradeColumns } from '../market/trade-columns';
import { TradeTail } from './state-store';
import { compareTradesOldestFirst } from './store-order';
import { trade as storedTrade } from './testing/state-store-contract';
import { appendTail } from './trade-tail';

const SEED = 20261126;

/** A stored trade by number. */
function trade(id: number, time: number): Trade {
  return storedTrade(String(id), time);
}

/** What a store would answer to readTradesFrom over `stored`. */
function tailOf(stored: readonly Trade[], from: number): TradeTail {
  const sorted = [...stored].sort(compareTradesOldestFirst);
  return {
    trades: sorted.filter((stored) => stored.time >= from),
    count: sorted.length,
    ...(sorted.length > 0 ? { oldest: sorted[0] } : {}),
  };
}

/** The copy brought up to date from what `stored` holds, or undefined when it must be read again. */
function update(copy: readonly Trade[], stored: readonly Trade[]): Trade[] | undefined {
  const columns = TradeColumns.of(copy);
  if (appendTail(columns, tailOf(stored, copy[copy.length - 1].time))) return columns.toArray();
  expect(columns.toArray()).toEqual(copy);
  return undefined;
}

/** How the stored set moves between two reads. */
type Change =
  | { kind: 'append'; count: number; gap: number }
  | { kind: 'trim'; count: number }
  | { kind: 'backfill'; back: number }
  /** Another writer's rewrite: the same trades from some point on, fewer or more old ones before. */
  | { kind: 'replace'; drop: number; history: number }
  | { kind: 'empty' };

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({
    kind: fc.constant('append' as const),
    count: fc.integer({ min: 0, max: 4 }),
    gap: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({ kind: fc.constant('trim' as const), count: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('backfill' as const), back: fc.integer({ min: 0, max: 6 }) }),
  fc.record({
    kind: fc.constant('replace' as const),
    drop: fc.integer({ min: 0, max: 6 }),
    history: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({ kind: fc.constant('empty' as const) }),
);

describe('appendTail', () => {
  it('gives exactly the stored trades, or declines, whatever happened to them since the copy was read', () => {
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 12 }), (changes) => {
        let nextId = 1;
        let clock = 100;
        let stored: Trade[] = [trade(nextId++, clock), trade(nextId++, clock)];
        let copy = [...stored].sort(compareTradesOldestFirst);
        for (const step of changes) {
          const onlyAddedOrDropped = step.kind === 'append' || step.kind === 'trim';
          if (step.kind === 'append') {
            clock += step.gap;
            for (let i = 0; i < step.count; i++) stored.push(trade(nextId++, clock));
          } else if (step.kind === 'trim') {
            stored = [...stored].sort(compareTradesOldestFirst).slice(step.count);
          } else if (step.kind === 'backfill') {
            stored.push(trade(nextId++, Math.max(0, clock - step.back)));
          } else if (step.kind === 'replace') {
            const kept = [...stored].sort(compareTradesOldestFirst).slice(step.drop);
            const first = kept[0]?.time ?? clock;
            const older = Array.from({ length: step.history }, (_, i) => trade(nextId++, first - 1 - i));
            stored = [...older, ...kept];
          } else {
            stored = [];
          }
          const truth = [...stored].sort(compareTradesOldestFirst);
          const updated = copy.length > 0 ? update(copy, stored) : undefined;
          if (updated !== undefined) expect(updated).toEqual(truth);
          // Trades only added after the copy's newest, or only dropped from the old end while the
          // copy's newest is still stored: the tail always suffices.
          const newestKept = copy.length > 0 && truth.some(({ id }) => id === copy[copy.length - 1].id);
          if (onlyAddedOrDropped && newestKept) expect(updated).toEqual(truth);
          copy = truth;
        }
      }),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  it('takes the trades added at the copy newest time, and those after it', () => {
    const copy = [trade(1, 10), trade(2, 20)];
    const stored = [...copy, trade(3, 20), trade(4, 30)];
    expect(update(copy, stored)).toEqual(stored);
  });

  it('takes trades of equal times in order, and declines one filled in before the copy newest', () => {
    const copy = [trade(1, 10), trade(2, 20), trade(3, 20)];
    expect(update(copy, [...copy, trade(4, 20), trade(5, 20)])).toEqual([
      ...copy,
      trade(4, 20),
      trade(5, 20),
    ]);
    // Id 0 sorts first among the trades of time 20: the copy's trades of that time no longer lead the tail.
    expect(update(copy, [...copy, trade(0, 20)])).toBeUndefined();
  });

  it('leaves a slice taken before the update as it was', () => {
    const copy = Array.from({ length: 40 }, (_, i) => trade(i + 1, 100 + i));
    const columns = TradeColumns.of(copy);
    const before = columns.slice();
    const stored = [...copy.slice(5), ...Array.from({ length: 30 }, (_, i) => trade(41 + i, 140 + i))];
    expect(appendTail(columns, tailOf(stored, 139))).toBe(true);
    expect(columns.toArray()).toEqual(stored);
    expect(before.toArray()).toEqual(copy);
  });

  it('declines when a trade was filled in among older ones, or the set was rewritten or emptied', () => {
    const copy = [trade(1, 10), trade(2, 20), trade(3, 30)];
    expect(update(copy, [...copy, trade(4, 15)])).toBeUndefined();
    expect(update(copy, [trade(2, 20), trade(3, 30), trade(6, 5)])).toBeUndefined();
    expect(update(copy, [])).toBeUndefined();
    expect(update(copy, [trade(1, 10), trade(2, 20)])).toBeUndefined();
  });
});
