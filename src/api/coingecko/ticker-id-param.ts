import { ApiError } from '../http/api-error';

/** CoinGecko's required `ticker_id` query parameter (e.g. `BTC_USDT`); 400 when absent, empty or repeated. */
export function tickerIdParam(value: unknown): string {
  if (value === undefined || value === '')
    throw ApiError.badRequest('missing_ticker_id', 'ticker_id is required, e.g. BTC_USDT');
  if (typeof value !== 'string')
    throw ApiError.badRequest('invalid_ticker_id', 'ticker_id must be given once');
  return value;
}
