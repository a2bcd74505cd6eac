import { ApiError } from '../http/api-error';
import { singleParam } from '../http/query-params';

/** CoinGecko's required `ticker_id` query parameter (e.g. `BTC_USDT`); 400 when absent, empty or repeated. */
export function tickerIdParam(value: unknown): string {
  const given = singleParam(value, 'ticker_id');
  if (given === undefined)
    throw ApiError.badRequest('missing_ticker_id', 'ticker_id is required, e.g. BTC_USDT');
  return given;
}
