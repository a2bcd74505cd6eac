import { ApiError } from '../http/api-error';
import { tickerIdParam } from './ticker-id-param';

describe('tickerIdParam', () => {
  it('passes the value on: the market lookup decides whether it names a market', () => {
    expect(tickerIdParam('btc-USDT')).toBe('btc-USDT');
  });

  it('requires one value', () => {
    for (const [value, code, message] of [
      [undefined, 'missing_ticker_id', 'ticker_id is required, e.g. BTC_USDT'],
      ['', 'missing_ticker_id', 'ticker_id is required, e.g. BTC_USDT'],
      [['BTC_USDT', 'ETH_BTC'], 'invalid_ticker_id', 'ticker_id must be given once, got 2 values'],
    ] as const) {
      expect(() => tickerIdParam(value)).toThrow(new ApiError(400, code, message));
    }
  });
});
