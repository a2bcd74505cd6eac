import fc from 'fast-check';
import { MarketInfo } from './market-info';
import { EMPTY_STATS, MarketStats } from './market-stats';
import { hasLastPrice, percentChange, summarizeMarket } from './market-summary';

const market: MarketInfo = {
  instrument: 'eth_btc',
  baseAsset: 'eth',
  quoteAsset: 'btc',
  priceScale: 8,
  amountScale: 4,
  minAmount: '0.001',
  priceDeviation: '0.1',
  makerFee: '0.001',
  takerFee: '0.002',
  hidden: false,
  status: 'Open',
  side: 'BuySell',
  isCustom: false,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};

describe('summarizeMarket', () => {
  it('renders every figure at the market scale with its trailing zeros', () => {
    // Three trades 5.0 x 1.1, 6.0 x 0.9, 5.5 x 2: base 4, quote 21.9 (not last x base).
    const stats: MarketStats = {
      last: '5.5',
      open: '5',
      high: '6',
      low: '5',
      baseVolume: '4',
      quoteVolume: '21.9',
      tradeCount: 3,
      source: 'trades',
    };
    expect(summarizeMarket(market, stats, undefined, ['4.9', '1'], ['5.6', '2'])).toEqual({
      instrument: 'eth_btc',
      base: 'ETH',
      quote: 'BTC',
      last: '5.50000000',
      lastTraded: '5.50000000',
      open: '5.00000000',
      high: '6.00000000',
      low: '5.00000000',
      lowestAsk: '5.60000000',
      highestBid: '4.90000000',
      baseVolume: '4.0000',
      quoteVolume: '21.90000000',
      percentChange: '10.00',
      isFrozen: false,
    });
  });

  it('gives zero 24-hour figures without trades, zeros for empty book sides, and no last traded price without any trade', () => {
    const summary = summarizeMarket(market, EMPTY_STATS, undefined, undefined, undefined);
    expect(summary.last).toBe('0.00000000');
    expect(summary.lastTraded).toBeNull();
    expect(hasLastPrice(summary)).toBe(false);
    expect(summary.high).toBe('0.00000000');
    expect(summary.low).toBe('0.00000000');
    expect(summary.lowestAsk).toBe('0.00000000');
    expect(summary.highestBid).toBe('0.00000000');
    expect(summary.baseVolume).toBe('0.0000');
    expect(summary.percentChange).toBe('0.00');
  });

  it("keeps the window's last price zero, and the last traded price the newest trade known before it, at the market's scale", () => {
    const summary = summarizeMarket(
      market,
      EMPTY_STATS,
      { price: '0.051', time: 1 },
      ['0.05', '1'],
      ['0.052', '1'],
    );
    expect(summary).toMatchObject({
      last: '0.00000000',
      lastTraded: '0.05100000',
      open: '0.00000000',
      high: '0.00000000',
      low: '0.00000000',
      baseVolume: '0.0000',
      quoteVolume: '0.00000000',
      percentChange: '0.00',
    });
    expect(hasLastPrice(summary)).toBe(true);
  });

  it("prefers the window's newest trade to the newest known trade", () => {
    const stats = { ...EMPTY_STATS, last: '6', open: '5', high: '6', low: '5', tradeCount: 2 };
    const summary = summarizeMarket(market, stats, { price: '7', time: 1 }, undefined, undefined);
    expect(summary.last).toBe('6.00000000');
    expect(summary.lastTraded).toBe('6.00000000');
    expect(summary.percentChange).toBe('20.00');
  });

  it('rounds quote volumes half away from zero at the price scale', () => {
    const stats = {
      ...EMPTY_STATS,
      last: '1',
      open: '1',
      high: '1',
      low: '1',
      quoteVolume: '0.000000015',
      baseVolume: '0.00005',
    };
    const summary = summarizeMarket(market, stats, undefined, undefined, undefined);
    expect(summary.quoteVolume).toBe('0.00000002');
    expect(summary.baseVolume).toBe('0.0001');
  });

  it('marks halted and paused markets frozen', () => {
    expect(
      summarizeMarket({ ...market, status: 'Halted' }, EMPTY_STATS, undefined, undefined, undefined).isFrozen,
    ).toBe(true);
    expect(
      summarizeMarket({ ...market, status: 'Paused' }, EMPTY_STATS, undefined, undefined, undefined).isFrozen,
    ).toBe(true);
  });
});

describe('percentChange', () => {
  it('is in percent with two decimals and never negative zero', () => {
    expect(percentChange('5', '6')).toBe('20.00');
    expect(percentChange('6', '5')).toBe('-16.67');
    expect(percentChange('1000000', '999999.99')).toBe('0.00');
    expect(percentChange('0', '5')).toBe('0.00');
    expect(percentChange('3', '3.0000000000000001')).toBe('0.00');
  });

  it('rounds the exact quotient half away from zero, where a quotient carried to 40 places once rounded up early', () => {
    // (1 - 0.99999...) / 1 x 100 is 0.00499999...: under the halfway point, however close.
    expect(percentChange('1', `1.0000${'4'.repeat(1)}${'9'.repeat(40)}`)).toBe('0.00');
    expect(percentChange('3', '3.00015')).toBe('0.01');
    expect(percentChange('3', '2.99985')).toBe('-0.01');
    expect(percentChange('3', '2.9998499')).toBe('-0.01');
    expect(percentChange('3', '2.99985001')).toBe('0.00');
  });

  it('agrees with exact integer arithmetic for any two decimals', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.integer({ min: 0, max: 18 }))
      .map(([units, scale]) => ({ units, scale }));
    const text = ({ units, scale }: { units: bigint; scale: number }): string => {
      const digits = units.toString().padStart(scale + 1, '0');
      return scale === 0
        ? digits
        : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`.replace(/\.?0+$/, '');
    };
    /** Half away from zero at two decimals of (last - open) x 100 / open, in integers. */
    const reference = (open: { units: bigint; scale: number }, last: { units: bigint; scale: number }) => {
      const scale = Math.max(open.scale, last.scale);
      const o = open.units * 10n ** BigInt(scale - open.scale);
      const l = last.units * 10n ** BigInt(scale - last.scale);
      if (o === 0n) return '0.00';
      const numerator = (l - o) * 10_000n;
      const magnitude = numerator < 0n ? -numerator : numerator;
      let hundredths = magnitude / o;
      if (2n * (magnitude % o) >= o) hundredths += 1n;
      const digits = hundredths.toString().padStart(3, '0');
      const sign = numerator < 0n && hundredths > 0n ? '-' : '';
      return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
    };
    fc.assert(
      fc.property(decimal, decimal, (open, last) => {
        expect(percentChange(text(open), text(last))).toBe(reference(open, last));
      }),
      { seed: 20261125, numRuns: 2000 },
    );
    // Close to the halfway points, where the rounding is decided.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: -3, max: 3 }), (k, nudge) => {
        const open = { units: 10n ** 12n, scale: 0 };
        const last = { units: 10n ** 28n + BigInt(k) * 5n * 10n ** 23n + BigInt(nudge), scale: 16 };
        expect(percentChange(text(open), text(last))).toBe(reference(open, last));
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});
