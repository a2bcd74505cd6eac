import { parseExactJson } from '../exact-json';
import { readSpecFixture, unixMs } from '../testing/spec-fixtures';
import { decodeHistory } from './history-codec';

interface CandleMeaning {
  readonly instrument: string;
  readonly start: string;
  readonly end: string;
  readonly low: string;
  readonly high: string;
  readonly volume: string;
  readonly open: string;
  readonly close: string;
}

interface HistoryMeaning {
  readonly success: boolean;
  readonly instrument: string;
  readonly data: readonly CandleMeaning[];
  readonly startDateTime: string;
  readonly endDateTime: string;
}

describe('decodeHistory against the specification fixture', () => {
  it('reads every candle with its UTC bounds and exact prices (the envelope dates are not read)', () => {
    const { wire, means } = readSpecFixture<HistoryMeaning>('rest/candles.json');
    expect(means.success).toBe(true);
    expect(decodeHistory(parseExactJson(wire))).toEqual({
      instrument: means.instrument,
      candles: means.data.map((candle) => ({
        start: unixMs(candle.start),
        end: unixMs(candle.end),
        open: candle.open,
        high: candle.high,
        low: candle.low,
        close: candle.close,
        volume: candle.volume,
      })),
    });
  });
});
