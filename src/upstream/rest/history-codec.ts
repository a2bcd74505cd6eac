import { Candle } from '../../market/candle-stats';
import { ExactJson } from '../exact-json';
import { parseExchangeDate } from '../../market/exchange-date';
import { FieldError, FieldProblems, JsonFields } from '../json-fields';
import { MalformedBodyError } from '../malformed-body-error';

export interface CandleHistory {
  /** Lower case, as the envelope names it. */
  readonly instrument: string;
  /** Oldest first. */
  readonly candles: readonly Candle[];
}

function time(fields: JsonFields, key: string): number {
  const text = fields.string(key);
  const ms = parseExchangeDate(text);
  if (ms === undefined) throw new FieldError(fields.at(key), 'a UTC date YYYY-MM-DDThh:mm:ssZ', text);
  return ms;
}

function decodeCandle(value: ExactJson, path: string): Candle {
  const fields = JsonFields.of(value, path);
  const start = time(fields, 'start');
  const end = time(fields, 'end');
  if (end <= start) throw new FieldError(fields.at('end'), 'a time after start', fields.raw('end'));
  const candle: Candle = {
    start,
    end,
    open: fields.decimal('open'),
    high: fields.decimal('high'),
    low: fields.decimal('low'),
    close: fields.decimal('close'),
    volume: fields.decimal('volume'),
  };
  return fields.has('quoteVolume') ? { ...candle, quoteVolume: fields.decimal('quoteVolume') } : candle;
}

/**
 * Decodes the candle envelope of `GET /marketdata/instruments/{instrument}/history`
 * (`{ success, instrument, data, startDateTime, endDateTime }`). A body with `success` false or any
 * malformed candle is rejected with a MalformedBodyError listing every problem; candles are returned
 * oldest first whatever order they came in.
 */
export function decodeHistory(body: ExactJson): CandleHistory {
  const problems = new FieldProblems();
  const fields = problems.read(() => JsonFields.of(body, ''));
  if (!fields) throw new MalformedBodyError('history', problems.messages);
  if (fields.has('success') && fields.raw('success') !== true) {
    problems.add(new FieldError('success', 'true', fields.raw('success')));
  }
  const instrument = problems.read(() => fields.string('instrument').toLowerCase());
  const data = problems.read(() => fields.array('data')) ?? [];
  const candles: Candle[] = [];
  data.forEach((value, index) => {
    const candle = problems.read(() => decodeCandle(value, `data[${index}]`));
    if (candle) candles.push(candle);
  });
  problems.throwIfAny('history');
  candles.sort((a, b) => a.start - b.start);
  return { instrument: instrument!, candles };
}
