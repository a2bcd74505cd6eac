import { MarketInfo } from '../../market/market-info';
import { ChartMarket } from './chart-markets';
import { barQuery, ChartQueryError, MAX_UNIX_SECONDS, readChartHistoryQuery } from './chart-query';

const BTC: ChartMarket = { symbol: 'BTCUSDT', market: { instrument: 'btc_usdt' } as MarketInfo };
const find = (name: string) => (name === 'BTCUSDT' ? BTC : undefined);
const read = (query: Record<string, unknown>) =>
  readChartHistoryQuery({ symbol: 'BTCUSDT', resolution: '1', ...query }, find);

describe('chart history queries', () => {
  it('maps seconds to milliseconds: TradingView to inclusive, UDF to exclusive', () => {
    const query = read({ from: '1795687200', to: '1795687320' });
    expect(barQuery(query, true)).toEqual({ from: 1795687200000, to: 1795687320001 });
    expect(barQuery(query, false)).toEqual({ from: 1795687200000, to: 1795687320000 });
  });

  it('with countback asks for the newest bars before to from the earliest time there is', () => {
    const query = read({ from: '1795687200', to: '1795687320', countback: '300' });
    expect(barQuery(query, true)).toEqual({
      from: -MAX_UNIX_SECONDS * 1000,
      to: 1795687320001,
      countback: 300,
    });
  });

  it('takes negative seconds, back to 1800, and the bounds of a JavaScript date', () => {
    expect(read({ from: '-5364662400', to: '0' })).toMatchObject({ from: -5364662400, to: 0 });
    expect(read({ from: '-0', to: String(MAX_UNIX_SECONDS) })).toMatchObject({ from: 0 });
    expect(read({ from: '00000000000000000001', to: '3' })).toMatchObject({ from: 1 });
    expect(() => read({ from: '0', to: String(MAX_UNIX_SECONDS + 1) })).toThrow(
      /^to must be within 8640000000000 seconds of 1970, got "8640000000001"$/,
    );
  });

  it.each([
    [{ from: ['1', '2'], to: '3' }, 'from must be given once'],
    [{ from: ' 1', to: '3' }, 'from must be Unix seconds, an integer, got " 1"'],
    [
      { from: '12345678901234', to: '3' },
      'from must be within 8640000000000 seconds of 1970, got "12345678901234"',
    ],
    [{ to: '3' }, 'from is required'],
    [{ from: '', to: '3' }, 'from is required'],
    [
      { from: '1', to: '3', resolution: '1H' },
      'resolution must be one of 1, 5, 15, 30, 60, 240, 1D, 1W, 1M (or D, W, M), got "1H"',
    ],
    [{ from: '1', to: '3', symbol: 'x'.repeat(100) }, `unknown symbol "${'x'.repeat(64)}…"`],
    [{ from: '1', to: '3', countback: '1.0' }, 'countback must be an integer from 1 to 10000, got "1.0"'],
  ])('refuses %j: %s', (query, message) => {
    expect(() => read(query)).toThrow(new ChartQueryError(message));
  });
});
