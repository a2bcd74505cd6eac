import { TakerSide } from '../../market/trade';
import { ApiError } from '../http/api-error';
import { integerParam } from '../http/query-params';
import { TradeFigures } from '../views/trade-figures';

/** A validated `/coingecko/historical_trades` query. */
export interface HistoricalTradesQuery {
  /** Only trades of this taker side; both when absent. */
  readonly type?: TakerSide;
  /** The newest `limit` trades that match; 0 for all of them. */
  readonly limit: number;
  /** Inclusive bounds of the trade time, Unix milliseconds. */
  readonly from: number;
  readonly to: number;
}

export interface HistoricalTrades {
  readonly buy: readonly TradeFigures[];
  readonly sell: readonly TradeFigures[];
}

const TIME = /^\d{1,16}$/;
/**
 * A time below this is read as Unix seconds, since CoinGecko's own samples use seconds: as
 * milliseconds it would be before March 1973, as seconds it is before the year 5138.
 */
const SECONDS_BELOW = 100_000_000_000;

/** A single text value of a query parameter; undefined when absent or empty. */
function text(value: unknown, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw ApiError.badRequest(`invalid_${name}`, `${name} must be given once`);
  return value;
}

/** Unix milliseconds of a bound; a bound in seconds covers its whole second. */
function timeParam(value: unknown, name: string, bound: 'start' | 'end'): number | undefined {
  const given = text(value, name);
  if (given === undefined) return undefined;
  if (!TIME.test(given)) {
    throw ApiError.badRequest(`invalid_${name}`, `${name} must be a Unix time in milliseconds (or seconds)`);
  }
  const time = Number(given);
  if (time >= SECONDS_BELOW) return time;
  return bound === 'start' ? time * 1000 : time * 1000 + 999;
}

function typeParam(value: unknown): TakerSide | undefined {
  const given = text(value, 'type')?.toLowerCase();
  if (given === undefined || given === 'buy' || given === 'sell') return given;
  throw ApiError.badRequest('invalid_type', 'type must be buy or sell');
}

/** Reads `type`, `limit`, `start_time` and `end_time`; 400 with the error body for anything else. */
export function readHistoricalTradesQuery(query: Readonly<Record<string, unknown>>): HistoricalTradesQuery {
  const type = typeParam(query.type);
  const limit = integerParam(query.limit, 'limit', 0);
  const from = timeParam(query.start_time, 'start_time', 'start') ?? 0;
  const to = timeParam(query.end_time, 'end_time', 'end') ?? Number.MAX_SAFE_INTEGER;
  if (from > to) throw ApiError.badRequest('invalid_time_range', 'start_time must not be after end_time');
  return { type, limit, from, to };
}

/** The trades the query selects, newest first, split by taker side; `trades` newest first. */
export function selectHistoricalTrades(
  trades: readonly TradeFigures[],
  query: HistoricalTradesQuery,
): HistoricalTrades {
  const buy: TradeFigures[] = [];
  const sell: TradeFigures[] = [];
  let taken = 0;
  for (const trade of trades) {
    if (query.limit > 0 && taken === query.limit) break;
    if (trade.time < query.from || trade.time > query.to) continue;
    if (query.type !== undefined && trade.side !== query.type) continue;
    (trade.side === 'buy' ? buy : sell).push(trade);
    taken++;
  }
  return { buy, sell };
}
