import { Side } from '../engine/side';
import { SandboxTrade, TickDirection } from '../simulation/sandbox-trade';
import { selectCandles } from './candle-history';
import { HistoryQuery } from './history-query';

const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 4, 1);

let nextId = 1;
function trade(time: number, price: bigint, amount = 1n): SandboxTrade {
  return {
    id: nextId++,
    instrument: 'btc_usdt',
    instrumentId: 1,
    price,
    amount,
    takerSide: Side.Buy,
    time,
    direction: TickDirection.NoChange,
    makerOrderId: 1,
    takerOrderId: 2,
    makerAccountId: 1,
    takerAccountId: 2,
  };
}

function query(override: Partial<HistoryQuery>): HistoryQuery {
  return { from: T0, to: T0 + 24 * HOUR, interval: '1h', count: 1000, ...override };
}

describe('selectCandles', () => {
  // One trade at the start of each of the first 10 hours, priced 100 + hour.
  const trades = Array.from({ length: 10 }, (_, hour) => trade(T0 + hour * HOUR, 100n + BigInt(hour)));

  it('gives one candle per bucket with trades, oldest first', () => {
    const candles = selectCandles(trades, query({}));
    expect(candles.map((candle) => candle.start)).toEqual(trades.map((t) => t.time));
    expect(candles[3]).toMatchObject({ end: T0 + 4 * HOUR, open: 103n, close: 103n, volume: 1n });
  });

  it('keeps the most recent `count` candles when there are more', () => {
    const candles = selectCandles(trades, query({ count: 3 }));
    expect(candles.map((candle) => candle.open)).toEqual([107n, 108n, 109n]);
  });

  it('takes trades with from <= time < to', () => {
    const candles = selectCandles(trades, query({ from: T0 + 2 * HOUR, to: T0 + 5 * HOUR }));
    expect(candles.map((candle) => candle.open)).toEqual([102n, 103n, 104n]);
  });

  it('fills a bucket cut by the range only with the trades inside the range', () => {
    const inHour = [trade(T0 + 60_000, 50n, 2n), trade(T0 + 120_000, 70n, 3n), trade(T0 + 180_000, 60n, 5n)];
    const [candle] = selectCandles(inHour, query({ from: T0 + 120_000 }));
    expect(candle).toEqual({
      start: T0,
      end: T0 + HOUR,
      open: 70n,
      high: 70n,
      low: 60n,
      close: 60n,
      volume: 8n,
      quoteVolume: 70n * 3n + 60n * 5n,
    });
  });

  it('gives nothing for a range without trades', () => {
    expect(selectCandles(trades, query({ from: T0 + 20 * HOUR }))).toEqual([]);
  });
});
