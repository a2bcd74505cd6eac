import { tradeCandles } from './trade-candles';

const HOUR = 3_600_000;
const T = Date.UTC(2024, 4, 1, 10);

describe('tradeCandles', () => {
  it('opens, closes and spans each bucket that holds a trade, with exact volumes', () => {
    const candles = tradeCandles(
      [
        { time: T + 1, price: '5', amount: '1.1' },
        { time: T + 2, price: '6', amount: '0.9' },
        { time: T + HOUR - 1, price: '5.5', amount: '2' },
        { time: T + 3 * HOUR, price: '0.000000000000000001', amount: '123456789.123456789012345678' },
      ],
      '1h',
    );
    expect(candles).toEqual([
      {
        start: T,
        end: T + HOUR,
        open: '5',
        high: '6',
        low: '5',
        close: '5.5',
        volume: '4',
        quoteVolume: '21.9',
      },
      {
        start: T + 3 * HOUR,
        end: T + 4 * HOUR,
        open: '0.000000000000000001',
        high: '0.000000000000000001',
        low: '0.000000000000000001',
        close: '0.000000000000000001',
        volume: '123456789.123456789012345678',
        quoteVolume: '0.000000000123456789123456789012345678',
      },
    ]);
  });

  it('compares prices as decimals, not as text', () => {
    const [candle] = tradeCandles(
      [
        { time: T, price: '9.5', amount: '1' },
        { time: T + 1, price: '10', amount: '1' },
        { time: T + 2, price: '9.75', amount: '1' },
      ],
      '1d',
    );
    expect(candle).toMatchObject({ open: '9.5', high: '10', low: '9.5', close: '9.75' });
  });

  it('uses weeks from Monday and calendar months', () => {
    const wednesday = Date.UTC(2024, 4, 1, 12);
    expect(tradeCandles([{ time: wednesday, price: '1', amount: '1' }], '1w')[0]).toMatchObject({
      start: Date.UTC(2024, 3, 29),
      end: Date.UTC(2024, 4, 6),
    });
    expect(tradeCandles([{ time: wednesday, price: '1', amount: '1' }], '1M')[0]).toMatchObject({
      start: Date.UTC(2024, 4, 1),
      end: Date.UTC(2024, 5, 1),
    });
  });

  it('gives no candle without trades', () => {
    expect(tradeCandles([], '1m')).toEqual([]);
  });
});
