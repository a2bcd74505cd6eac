import { compareValues, orderRows } from './table-order';

const rows = [
  { market: 'BTC_USDT', dataAgeMs: 120, flags: ['thin_depth'], spreadPercent: '0.10' },
  { market: 'ETH_BTC', dataAgeMs: null, flags: [], spreadPercent: '12.50' },
  { market: 'ETH_USDT', dataAgeMs: 40, flags: [], spreadPercent: '2.00' },
];

describe('orderRows', () => {
  it('sorts numbers and decimal text by value, absent values last either way', () => {
    expect(orderRows(rows, '', { field: 'dataAgeMs', descending: false }).map((r) => r.market)).toEqual([
      'ETH_USDT',
      'BTC_USDT',
      'ETH_BTC',
    ]);
    expect(orderRows(rows, '', { field: 'dataAgeMs', descending: true }).map((r) => r.market)).toEqual([
      'BTC_USDT',
      'ETH_USDT',
      'ETH_BTC',
    ]);
    expect(orderRows(rows, '', { field: 'spreadPercent', descending: true })[0].market).toBe('ETH_BTC');
  });

  it('keeps the rows holding every word of the filter, in any case', () => {
    expect(orderRows(rows, 'eth', { field: 'market', descending: false }).map((r) => r.market)).toEqual([
      'ETH_BTC',
      'ETH_USDT',
    ]);
    expect(orderRows(rows, 'THIN btc', { field: 'market', descending: false }).map((r) => r.market)).toEqual([
      'BTC_USDT',
    ]);
  });
});

describe('compareValues', () => {
  it('orders text alphabetically when either side is not a number', () => {
    expect(compareValues('live', 're-synchronising')).toBeLessThan(0);
    expect(compareValues('10', '9')).toBeGreaterThan(0);
  });
});
