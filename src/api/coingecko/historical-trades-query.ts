import { TakerSide } from '../../market/trade';
import { ApiError } from '../http/api-error';
import { echo, integerParam, singleParam } from '../http/query-params';
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

/** The end of the year 9999 in Unix milliseconds: any later time is a mistake. */
const MAX_TIME = 253_402_300_799_999;
/** More than a day of trades of any market: a larger limit is a mistake, not a wish for all (0). */
export const MAX_LIMIT = 1_000_000;
/**
 * A time below this is read as Unix seconds, since CoinGecko's own samples use seconds: as
 * milliseconds it would be before March 1973, as seconds it is before the year 5138.
 */
const SECONDS_BELOW = 100_000_000_000;

/** Unix milliseconds of a bound; a bound in seconds covers its whole second. */
function timeParam(value: unknown, name: string, bound: 'start' | 'end'): number | undefined {
  if (singleParam(value, name) === undefined) return undefined;
  const time = integerParam(value, name, 0, MAX_TIME, 'a Unix time in milliseconds (or seconds)');
  if (time >= SECONDS_BELOW) return time;
  return bound === 'start' ? time * 1000 : time * 1000 + 999;
}

function typeParam(value: unknown): TakerSide | undefined {
  const given = singleParam(value, 'type');
  const side = given?.toLowerCase();
  if (side === undefined || side === 'buy' || side === 'sell') return side;
  throw ApiError.badRequest('invalid_type', `type must be buy or sell, got ${echo(given!)}`);
}

/** Reads `type`, `limit`, `start_time` and `end_time`; 400 with the error body for anything else. */
export function readHistoricalTradesQuery(query: Readonly<Record<string, unknown>>): HistoricalTradesQuery {
  const type = typeParam(query.type);
  const limit = integerParam(query.limit, 'limit', 0, MAX_LIMIT);
  const from = timeParam(query.start_time, 'start_time', 'start') ?? 0;
  const to = timeParam(query.end_time, 'end_time', 'end') ?? Number.MAX_SAFE_INTEGER;
  if (from > to) {
    throw ApiError.badRequest(
      'invalid_time_range',
      `start_time must not be after end_time, got ${echo(String(query.start_time))} and ${echo(String(query.end_time))}`,
    );
  }
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
