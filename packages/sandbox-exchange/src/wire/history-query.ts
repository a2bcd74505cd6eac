import { CANDLE_INTERVALS, CandleInterval, isCandleInterval, MAX_CANDLES } from './candle-interval';
import { parseExchangeDate } from './exchange-date';

/** A valid `/history` query: trades with `from <= time < to`, in `interval` buckets. */
export interface HistoryQuery {
  readonly from: number;
  readonly to: number;
  readonly interval: CandleInterval;
  readonly count: number;
}

/** The query, or one message per bad parameter, each naming it. */
export type HistoryQueryReading = { readonly query: HistoryQuery } | { readonly problems: readonly string[] };

const DATE_RULE = 'must be a UTC date YYYY-MM-DDThh:mm:ss';
const INTERVAL_RULE = `must be one of ${CANDLE_INTERVALS.join(', ')}`;
const COUNT_RULE = `must be an integer from 1 to ${MAX_CANDLES}`;
const COUNT_TEXT = /^\d{1,7}$/;

/** A parameter given more than once arrives as an array. */
const REPEATED = Symbol('repeated');
type Parameter = string | undefined | typeof REPEATED;

/**
 * Reads the query of `/marketdata/instruments/{instrument}/history` as the exchange checks it:
 * `startDate`, `endDate` and `type` are required, `count` defaults to 1000.
 */
export function readHistoryQuery(query: Readonly<Record<string, unknown>>): HistoryQueryReading {
  const problems: string[] = [];
  const parameter = (name: string): Parameter => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value === 'string') return value;
    problems.push(`${name}: must be given once`);
    return REPEATED;
  };

  const readDate = (name: string): number | undefined => {
    const text = parameter(name);
    if (text === REPEATED) return undefined;
    if (text === undefined) {
      problems.push(`${name}: is required and ${DATE_RULE}`);
      return undefined;
    }
    const time = parseExchangeDate(text, true);
    if (time === undefined) problems.push(`${name}: ${DATE_RULE}, got ${JSON.stringify(text)}`);
    return time;
  };

  const from = readDate('startDate');
  const to = readDate('endDate');
  if (from !== undefined && to !== undefined && to <= from)
    problems.push('endDate: must be later than startDate');

  const type = parameter('type');
  if (type === undefined) problems.push(`type: is required and ${INTERVAL_RULE}`);
  else if (type !== REPEATED && !isCandleInterval(type))
    problems.push(`type: ${INTERVAL_RULE}, got ${JSON.stringify(type)}`);

  const countText = parameter('count');
  let count = MAX_CANDLES;
  if (typeof countText === 'string') {
    count = COUNT_TEXT.test(countText) ? Number(countText) : 0;
    if (count < 1 || count > MAX_CANDLES)
      problems.push(`count: ${COUNT_RULE}, got ${JSON.stringify(countText)}`);
  }

  if (problems.length > 0 || from === undefined || to === undefined) return { problems };
  return { query: { from, to, interval: type as CandleInterval, count } };
}
