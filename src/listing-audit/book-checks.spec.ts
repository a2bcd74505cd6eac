import {
  checkBookAmounts,
  checkBookFresh,
  checkBookOrder,
  checkBookUncrossed,
  checkPriceVsBook,
} from './book-checks';
import { BookView } from './market-views';

const NOW = Date.parse('2026-11-26T12:00:00Z');

function book(bids: [string, string][], asks: [string, string][], timestampMs = NOW - 500): BookView {
  const level = ([price, amount]: [string, string]) => ({ price, amount });
  return {
    market: 'BTC_USDT',
    where: '/orderbook/btc_usdt',
    timestampMs,
    bids: bids.map(level),
    asks: asks.map(level),
  };
}

const GOOD = book(
  [
    ['65000.00', '0.1'],
    ['64999.50', '2'],
  ],
  [
    ['65001.00', '0.3'],
    ['65010.00', '1'],
  ],
);

describe('book checks', () => {
  it('pass a sorted, uncrossed book of positive levels', () => {
    expect([...checkBookOrder(GOOD), ...checkBookUncrossed(GOOD), ...checkBookAmounts(GOOD)]).toEqual([]);
  });

  it('fail bids in ascending order, a crossed book and a zero amount', () => {
    const bad = book(
      [
        ['64000', '1'],
        ['65000', '0'],
      ],
      [['64500', '1']],
    );
    expect(checkBookOrder(bad)).toEqual([
      expect.objectContaining({ check: 'book-order', where: '/orderbook/btc_usdt.bids[1]' }),
    ]);
    expect(checkBookUncrossed(bad)[0].detail).toBe('best bid 65000 is not below best ask 64500');
    expect(checkBookAmounts(bad)).toEqual([
      expect.objectContaining({ check: 'book-amounts', detail: '[65000, 0]' }),
    ]);
  });

  it('fails a book older than the newest trade, or timed in seconds', () => {
    const timing = { receivedAtMs: NOW, staleAfterMs: 300_000 };
    expect(checkBookFresh(GOOD, { ...timing, newestTradeMs: NOW - 1000 })).toEqual([]);
    expect(checkBookFresh(book([], [], NOW - 3_600_000), { ...timing, newestTradeMs: NOW - 1000 })).toEqual([
      expect.objectContaining({ check: 'book-fresh', severity: 'fail' }),
    ]);
    expect(checkBookFresh(book([], [], Math.floor(NOW / 1000)), timing)[0].detail).toMatch(/Unix seconds/);
    expect(
      checkBookFresh(GOOD, {
        ...timing,
        newestTradeMs: NOW - 1000,
        lastModified: new Date(NOW - 600_000).toUTCString(),
      }),
    ).toEqual([expect.objectContaining({ where: '/orderbook/btc_usdt Last-Modified', severity: 'fail' })]);
  });

  it('only warns about an old book with no newer trade: the market may be quiet', () => {
    expect(
      checkBookFresh(book([], [], NOW - 3_600_000), { receivedAtMs: NOW, staleAfterMs: 300_000 }),
    ).toEqual([expect.objectContaining({ check: 'book-fresh', severity: 'warn' })]);
  });

  it('fails a last price near the inverse of the book mid, warns one far from it', () => {
    const figures = (last: string) => ({ market: 'BTC_USDT', where: '/summary BTC_USDT', last });
    expect(checkPriceVsBook(figures('64990.5'), GOOD)).toEqual([]);
    expect(checkPriceVsBook(figures('0.0000153849'), GOOD)).toEqual([
      expect.objectContaining({ check: 'price-vs-book', severity: 'fail' }),
    ]);
    expect(checkPriceVsBook(figures('20000'), GOOD)).toEqual([
      expect.objectContaining({ check: 'price-vs-book', severity: 'warn' }),
    ]);
  });
});
