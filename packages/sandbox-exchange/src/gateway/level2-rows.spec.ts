import { LevelAction } from '../engine/level-change';
import { Side } from '../engine/side';
import { formatUnits } from '../engine/units';
import { toJson } from '../http/json-number';
import { MarketSimulator } from '../simulation/market-simulator';
import { parseExactJson } from '../wire/exact-json';
import { deltaRows, Level2Row, snapshotRows } from './level2-rows';
import { emptyMarket } from './testing/market-fixture';

function limit(market: MarketSimulator, side: Side, price: bigint, amount: bigint, now = 1_000): void {
  market.execute({ accountId: 7, side, type: 'limit', price, amount, timeInForce: 'gtc' }, now);
}

/** Rows as a client reads them, every number as the exact text sent. */
function wire(rows: Level2Row[]): string[][] {
  return parseExactJson(toJson(rows)) as string[][];
}

/** A client's book: rows applied in order by price and side; 0/1 set the level, 2 deletes it. */
function apply(book: Map<string, string>, rows: Level2Row[]): void {
  for (const row of wire(rows)) {
    const key = `${row[9]}@${row[6]}`;
    if (row[3] === '2') book.delete(key);
    else book.set(key, row[8]);
  }
}

function truth(market: MarketSimulator): Map<string, string> {
  const book = new Map<string, string>();
  for (const side of [Side.Buy, Side.Sell]) {
    for (const level of market.engine.levels(side)) {
      book.set(
        `${side}@${formatUnits(level.price, market.spec.priceScale)}`,
        formatUnits(level.amount, market.spec.amountScale),
      );
    }
  }
  return book;
}

describe('level 2 rows', () => {
  it('writes the snapshot bids best first, then asks ascending, at most depth per side', () => {
    const { market } = emptyMarket();
    limit(market, Side.Buy, 6_499_000n, 10_000_000n);
    limit(market, Side.Buy, 6_499_500n, 25_000_000n);
    limit(market, Side.Buy, 6_499_500n, 5_000_000n);
    limit(market, Side.Buy, 6_498_000n, 1n);
    limit(market, Side.Sell, 6_500_100n, 30_000_000n);
    limit(market, Side.Sell, 6_500_050n, 12_345_678n, 2_000);
    const rows = wire(snapshotRows(market, 2));
    expect(rows).toEqual([
      [String(market.version), '1', '2000', '0', '0', '2', '64995', '1', '0.3', '0'],
      [String(market.version), '1', '2000', '0', '0', '1', '64990', '1', '0.1', '0'],
      [String(market.version), '1', '2000', '0', '0', '1', '65000.5', '1', '0.12345678', '1'],
      [String(market.version), '1', '2000', '0', '0', '1', '65001', '1', '0.3', '1'],
    ]);
    expect(snapshotRows(market, 10)).toHaveLength(5);
  });

  it('carries the last trade price in every row', () => {
    const { market } = emptyMarket();
    limit(market, Side.Sell, 6_500_000n, 30_000_000n);
    limit(market, Side.Sell, 6_500_100n, 30_000_000n);
    limit(market, Side.Buy, 6_500_000n, 10_000_000n);
    expect(wire(snapshotRows(market, 5)).map((row) => row[4])).toEqual(['65000', '65000']);
  });

  it('writes a delta in change order with its version, deletes with quantity 0', () => {
    const { market, deltas } = emptyMarket();
    limit(market, Side.Sell, 6_500_000n, 10_000_000n);
    limit(market, Side.Sell, 6_500_100n, 30_000_000n);
    market.execute(
      {
        accountId: 8,
        side: Side.Buy,
        type: 'limit',
        price: 6_500_100n,
        amount: 20_000_000n,
        timeInForce: 'gtc',
      },
      5_000,
    );
    const delta = deltas[deltas.length - 1];
    expect(delta.changes.map((change) => change.action)).toEqual([LevelAction.Delete, LevelAction.Update]);
    const rows = wire(deltaRows(delta, market.spec, market.tradeLog.last()?.price));
    expect(rows[0]).toEqual([String(delta.version), '0', '5000', '2', '65001', '0', '65000', '1', '0', '1']);
    expect(rows[rows.length - 1]).toEqual([
      String(delta.version),
      '1',
      '5000',
      '1',
      '65001',
      '1',
      '65001',
      '1',
      '0.2',
      '1',
    ]);
  });

  it('sends every third update as a delete followed by a new row at the same price', () => {
    const { market, deltas } = emptyMarket();
    limit(market, Side.Buy, 100n, 1_000n);
    for (let i = 0; i < 6; i++) limit(market, Side.Buy, 100n, 1_000n);
    const updates = deltas.slice(1);
    const split = updates.filter((delta) => delta.version % 3 === 0);
    expect(split).toHaveLength(2);
    for (const delta of updates) {
      const rows = wire(deltaRows(delta, market.spec, undefined));
      if (delta.version % 3 === 0) {
        expect(rows.map((row) => [row[3], row[6], row[8], row[9]])).toEqual([
          ['2', '1', '0', '0'],
          ['0', '1', rows[1][8], '0'],
        ]);
        expect(Number(rows[1][8])).toBeGreaterThan(0);
      } else {
        expect(rows.map((row) => row[3])).toEqual(['1']);
      }
    }
  });

  it('lets a client rebuild the book from a snapshot and the deltas after it', () => {
    const { market, deltas } = emptyMarket();
    for (let i = 0; i < 40; i++)
      limit(
        market,
        i % 2 ? Side.Sell : Side.Buy,
        BigInt(6_500_000 + (i % 2 ? 1 : -1) * (i % 7) * 50),
        1_000_000n,
      );
    const book = new Map<string, string>();
    apply(book, snapshotRows(market, 1_000));
    const from = deltas.length;
    for (let i = 0; i < 60; i++) {
      const side = i % 3 === 0 ? Side.Buy : Side.Sell;
      const price = BigInt(6_500_000 + (i % 5) * 100 - 250);
      market.execute(
        { accountId: 9, side, type: 'limit', price, amount: 2_500_000n, timeInForce: 'gtc' },
        9_000 + i,
      );
    }
    const actions = new Set<string>();
    for (const delta of deltas.slice(from)) {
      const rows = deltaRows(delta, market.spec, undefined);
      for (const row of rows) actions.add(String(row[3]));
      if (rows.length > delta.changes.length) actions.add('split');
      apply(book, rows);
    }
    expect([...actions].sort()).toEqual(['0', '1', '2', 'split']);
    expect(book).toEqual(truth(market));
    expect(book.size).toBeGreaterThan(5);
  });
});
