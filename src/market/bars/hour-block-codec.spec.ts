import fc from 'fast-check';
import { Candle } from '../candle-stats';
import { decodeHourBlock, encodeHourBlock, HourBars, HourBlockFormatError } from './hour-block-codec';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const H = Date.UTC(2026, 11, 1, 14);

function bar(minute: number, open: string, high: string, low: string, close: string, volume: string): Candle {
  const start = H + minute * MINUTE;
  return { start, end: start + MINUTE, open, high, low, close, volume };
}

/** Canonical decimal text of up to `integerDigits` integer digits and up to `decimals` decimals. */
const decimal = (integerDigits: number, decimals = 18): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.stringMatching(new RegExp(`^[1-9][0-9]{0,${integerDigits - 1}}$`)),
      fc.stringMatching(new RegExp(`^[0-9]{0,${decimals}}$`)),
      fc.boolean(),
    )
    .map(([integer, fraction, zeroInteger]) => {
      const trimmed = fraction.replace(/0+$/, '');
      const whole = zeroInteger && trimmed !== '' ? '0' : integer;
      return trimmed === '' ? whole : `${whole}.${trimmed}`;
    });

const sortedPrices = (integerDigits: number, decimals?: number) =>
  fc
    .array(decimal(integerDigits, decimals), { minLength: 4, maxLength: 4 })
    .map((prices) => prices.sort((a, b) => compareDecimals(a, b)));

function compareDecimals(a: string, b: string): number {
  const [ai, af = ''] = a.split('.');
  const [bi, bf = ''] = b.split('.');
  if (ai.length !== bi.length) return ai.length - bi.length;
  const width = Math.max(af.length, bf.length);
  const x = ai + af.padEnd(width, '0');
  const y = bi + bf.padEnd(width, '0');
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Hours of bars with prices of up to `digits` integer digits and `decimals` decimals, volumes of up to twice as many. */
const hourBars = (digits: number, decimals?: number): fc.Arbitrary<HourBars> =>
  fc
    .record({
      hour: fc.integer({ min: 0, max: 600_000 }),
      source: fc.constantFrom('trades' as const, 'exchange' as const),
      minutes: fc.uniqueArray(fc.integer({ min: 0, max: 59 }), { maxLength: 60 }),
      values: fc.array(
        fc.record({
          prices: sortedPrices(digits, decimals),
          openIsLow: fc.boolean(),
          volume: fc.oneof(decimal(2 * digits, decimals), fc.constant('0')),
          quoteVolume: fc.option(decimal(2 * digits, decimals), { nil: undefined, freq: 3 }),
        }),
        { minLength: 60, maxLength: 60 },
      ),
    })
    .map(({ hour, source, minutes, values }) => {
      const hourStart = hour * HOUR;
      const bars = [...minutes]
        .sort((a, b) => a - b)
        .map((minute, index): Candle => {
          const { prices, openIsLow, volume, quoteVolume } = values[index];
          const [low, a, b, high] = prices;
          const start = hourStart + minute * MINUTE;
          const candle = {
            start,
            end: start + MINUTE,
            open: openIsLow ? a : b,
            high,
            low,
            close: openIsLow ? b : a,
            volume,
          };
          return quoteVolume === undefined ? candle : { ...candle, quoteVolume };
        });
      return { hourStart, source, bars };
    });

describe('hour block codec', () => {
  it('round-trips any hour of bars exactly, to 18 decimals and past 2^53 units', () => {
    fc.assert(
      fc.property(hourBars(24), (block) => {
        expect(decodeHourBlock(encodeHourBlock(block))).toEqual(block);
      }),
      { numRuns: 100 },
    );
  });

  it('round-trips hours of everyday prices and volumes exactly', () => {
    fc.assert(
      fc.property(hourBars(5, 4), (block) => {
        expect(decodeHourBlock(encodeHourBlock(block))).toEqual(block);
      }),
      { numRuns: 100 },
    );
  });

  it('decodes an hour exactly when one of its values is past 2^53 units', () => {
    const block: HourBars = {
      hourStart: H,
      source: 'trades',
      bars: [
        bar(0, '27000.5', '27001', '26999.25', '27000', '0.5'),
        bar(1, '27000', '27000', '27000', '27000', '9007199254740993.000000001'),
        bar(2, '9007199254740993', '9007199254740993', '0.01', '0.01', '0'),
      ],
    };
    expect(decodeHourBlock(encodeHourBlock(block))).toEqual(block);
  });

  it('round-trips bars whose high and low are not the extremes of open and close', () => {
    const block: HourBars = {
      hourStart: H,
      source: 'exchange',
      bars: [bar(0, '10', '9', '11', '10.5', '1'), bar(59, '0', '0', '0', '0', '0')],
    };
    expect(decodeHourBlock(encodeHourBlock(block))).toEqual(block);
  });

  it('writes an hour of steady bars compactly', () => {
    const bars = Array.from({ length: 60 }, (_, minute) =>
      bar(
        minute,
        `27000.${10 + minute}`,
        `27000.${20 + minute}`,
        `27000.${String(minute).padStart(2, '0')}`,
        `27000.${11 + minute}`,
        '0.12345678',
      ),
    );
    const text = encodeHourBlock({ hourStart: H, source: 'trades', bars });
    expect(text.split('\n')[0]).toMatch(new RegExp(`^b1 t ${H} 2 8 - 60 [0-9a-z]+$`));
    expect(text.split('\n')[1]).toBe(',1lvca,1,9,a,7clzi');
    expect(text.split('\n')[2]).toBe(',,1,9,a,7clzi');
    // About 14 bytes a minute: some 20 kB a market-day.
    expect(text.length).toBeLessThan(60 * 15);
  });

  it('canonicalises values written with trailing zeros or exponents', () => {
    const block = encodeHourBlock({
      hourStart: H,
      source: 'trades',
      bars: [bar(3, '1.50', '2e0', '1', '1.5', '0.10')],
    });
    expect(decodeHourBlock(block).bars).toEqual([bar(3, '1.5', '2', '1', '1.5', '0.1')]);
  });

  it('keeps the quote volume of the bars that have one', () => {
    const block: HourBars = {
      hourStart: H,
      source: 'trades',
      bars: [{ ...bar(1, '1', '1', '1', '1', '2'), quoteVolume: '2' }, bar(2, '1', '1', '1', '1', '3')],
    };
    expect(decodeHourBlock(encodeHourBlock(block))).toEqual(block);
  });

  it('encodes an hour without bars', () => {
    const block: HourBars = { hourStart: H, source: 'exchange', bars: [] };
    expect(decodeHourBlock(encodeHourBlock(block))).toEqual(block);
  });

  it('refuses bars it cannot encode', () => {
    expect(() => encodeHourBlock({ hourStart: H + 1, source: 'trades', bars: [] })).toThrow('UTC hour');
    const late = bar(60, '1', '1', '1', '1', '1');
    expect(() => encodeHourBlock({ hourStart: H, source: 'trades', bars: [late] })).toThrow('later minute');
    const twice = [bar(1, '1', '1', '1', '1', '1'), bar(1, '1', '1', '1', '1', '1')];
    expect(() => encodeHourBlock({ hourStart: H, source: 'trades', bars: twice })).toThrow('later minute');
    const long = { ...bar(1, '1', '1', '1', '1', '1'), end: H + HOUR };
    expect(() => encodeHourBlock({ hourStart: H, source: 'trades', bars: [long] })).toThrow('1-minute');
    expect(() =>
      encodeHourBlock({ hourStart: H, source: 'trades', bars: [bar(1, '-1', '1', '1', '1', '1')] }),
    ).toThrow('not a decimal');
  });

  describe('refuses a damaged or unknown text', () => {
    const good = encodeHourBlock({
      hourStart: H,
      source: 'trades',
      bars: [bar(0, '5', '6', '4', '5.5', '1'), bar(7, '5.5', '5.5', '5.5', '5.5', '0.25')],
    });

    it.each([
      ['another format', good.replace(/^b1/, 'b2'), 'unknown format "b2"'],
      ['an empty text', '', 'unknown format ""'],
      ['JSON', '{"bars":[]}', 'unknown format'],
      ['a missing header field', good.replace(/ [0-9a-z]+\n/, '\n'), 'header of 7 fields'],
      ['an unknown source', good.replace('b1 t', 'b1 x'), 'unknown source "x"'],
      ['an hour start off the hour', good.replace(` ${H} `, ` ${H + 1} `), 'is not a UTC hour'],
      ['a changed digit', good.replace(',a,', ',b,'), 'checksum mismatch'],
      ['a lost line', good.slice(0, good.lastIndexOf('\n')), 'checksum mismatch'],
      ['a cut text', good.slice(0, good.length - 1), 'checksum mismatch'],
      ['an extra line', `${good}\n`, 'checksum mismatch'],
    ])('%s', (_, text, message) => {
      expect(() => decodeHourBlock(text)).toThrow(HourBlockFormatError);
      expect(() => decodeHourBlock(text)).toThrow(message);
    });

    it('a bar count that does not match the lines', () => {
      const text = good.replace(/ 2 ([0-9a-z]+)\n/, ' 3 $1\n');
      expect(() => decodeHourBlock(text)).toThrow('2 bar lines, header says 3');
    });
  });
});
