import { parseExactJson } from '../exact-json';
import { decodeHistory } from './history-codec';
import { MalformedBodyError } from '../malformed-body-error';

function decode(text: string) {
  return decodeHistory(parseExactJson(text));
}

const CANDLE =
  '{"instrument":"btc_usdt","start":"2019-03-13T09:00:00Z","end":"2019-03-13T10:00:00Z","low":3842.855,' +
  '"high":3855.445,"volume":4,"quoteVolume":0,"open":3855.105,"close":3842.855}';

function envelope(data: string): string {
  return `{"success":true,"instrument":"btc_usdt","data":[${data}],"startDateTime":"2019-03-13T09:00:00Z","endDateTime":"2019-03-13T11:00:00Z"}`;
}

describe('decodeHistory', () => {
  it('decodes the documented sample', () => {
    expect(decode(envelope(CANDLE))).toEqual({
      instrument: 'btc_usdt',
      candles: [
        {
          start: Date.parse('2019-03-13T09:00:00Z'),
          end: Date.parse('2019-03-13T10:00:00Z'),
          open: '3855.105',
          high: '3855.445',
          low: '3842.855',
          close: '3842.855',
          volume: '4',
          quoteVolume: '0',
        },
      ],
    });
  });

  it('leaves quoteVolume out when the exchange does not send it', () => {
    const candle = decode(envelope(CANDLE.replace('"quoteVolume":0,', ''))).candles[0];
    expect(candle).not.toHaveProperty('quoteVolume');
  });

  it('keeps 18 decimals exact and reads times with milliseconds or without Z', () => {
    const candle = decode(
      envelope(
        '{"start":"2024-03-14T09:26:00","end":"2024-03-14T09:27:00.000Z","low":"0.000000004321987654",' +
          '"high":0.000000004321987655,"open":4.321987654e-9,"close":"0.0000000043219876540",' +
          '"volume":123456789.123456789012345678,"quoteVolume":0.533565172437954148962618216152296212}',
      ),
    ).candles[0];
    expect(candle).toEqual({
      start: Date.parse('2024-03-14T09:26:00Z'),
      end: Date.parse('2024-03-14T09:27:00Z'),
      low: '0.000000004321987654',
      high: '0.000000004321987655',
      open: '0.000000004321987654',
      close: '0.000000004321987654',
      volume: '123456789.123456789012345678',
      quoteVolume: '0.533565172437954148962618216152296212',
    });
  });

  it('orders candles oldest first', () => {
    const later = CANDLE.replace('10:00:00Z', '11:00:00Z').replace('09:00:00Z', '10:00:00Z');
    const starts = decode(envelope(`${later},${CANDLE}`)).candles.map((candle) => candle.start);
    expect(starts).toEqual([Date.parse('2019-03-13T09:00:00Z'), Date.parse('2019-03-13T10:00:00Z')]);
  });

  it('decodes an empty history', () => {
    expect(decode(envelope('')).candles).toEqual([]);
  });

  it('rejects a body with success false', () => {
    expect(() => decode('{"success":false,"instrument":"btc_usdt","data":[]}')).toThrow(
      /success: expected true/,
    );
  });

  it('rejects malformed candles, naming every problem', () => {
    try {
      decode(
        envelope(
          `${CANDLE.replace('3855.445', '"high"')},${CANDLE.replace('2019-03-13T10:00:00Z', '2019-03-13T08:00:00Z')}`,
        ),
      );
      throw new Error('expected a MalformedBodyError');
    } catch (error) {
      expect(error).toBeInstanceOf(MalformedBodyError);
      expect((error as MalformedBodyError).problems).toEqual([
        'data[0].high: expected a non-negative decimal number, got "high"',
        'data[1].end: expected a time after start, got "2019-03-13T08:00:00Z"',
      ]);
    }
  });

  it.each([
    ['an array', '[]'],
    ['no data', '{"success":true,"instrument":"btc_usdt"}'],
    ['no instrument', '{"success":true,"data":[]}'],
    ['a bad date', envelope(CANDLE.replace('2019-03-13T09:00:00Z', '13/03/2019'))],
  ])('rejects %s', (_case, text) => {
    expect(() => decode(text)).toThrow(MalformedBodyError);
  });
});
