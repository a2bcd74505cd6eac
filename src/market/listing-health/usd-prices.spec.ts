import { ExactRatio } from '../exact-ratio';
import { PriceSource, UsdPrices } from './usd-prices';

const source = (instrument: string, mid: string): PriceSource => {
  const [base, quote] = instrument.toUpperCase().split('_');
  return { instrument, base, quote, mid: ExactRatio.of(mid) };
};
const REFERENCES = ['USD', 'USDT', 'USDC'];

describe('UsdPrices', () => {
  it('counts a reference asset as one dollar', () => {
    expect(new UsdPrices(REFERENCES, []).of('USDC')).toEqual({ price: ExactRatio.ONE, path: [] });
  });

  it('prices an asset by its market against a reference asset, either way round', () => {
    const prices = new UsdPrices(REFERENCES, [source('btc_usdt', '50000'), source('usdt_try', '40')]);
    const btc = prices.of('BTC');
    expect(btc.price?.toFixed(2)).toBe('50000.00');
    expect(btc).toMatchObject({ path: ['btc_usdt'] });
    const lira = prices.of('TRY');
    expect(lira.price?.compare(ExactRatio.fraction(1n, 40n))).toBe(0);
    expect(lira).toMatchObject({ path: ['usdt_try'] });
  });

  it('goes through one intermediate asset when no direct market exists', () => {
    const prices = new UsdPrices(REFERENCES, [
      source('abc_eth', '0.5'),
      source('eth_btc', '0.05'),
      source('btc_usdt', '60000'),
    ]);
    const eth = prices.of('ETH');
    expect(eth.price?.toFixed(2)).toBe('3000.00');
    expect(eth).toMatchObject({ path: ['eth_btc', 'btc_usdt'] });
    expect(prices.of('ABC')).toMatchObject({ price: undefined });
    expect((prices.of('ABC') as { reason: string }).reason).toBe(
      'no listed market prices ABC in USD, USDT, USDC, directly or through one other asset',
    );
  });

  it('prefers a direct market, then the references in their order, then market names', () => {
    const prices = new UsdPrices(REFERENCES, [
      source('eth_btc', '0.05'),
      source('btc_usdt', '60000'),
      source('eth_usdc', '3001'),
      source('eth_usdt', '2999'),
    ]);
    expect(prices.of('ETH')).toMatchObject({ path: ['eth_usdt'] });
  });

  it('keeps an inverted price exact', () => {
    const prices = new UsdPrices(REFERENCES, [source('usd_eur', '0.9'), source('sol_eur', '135')]);
    expect(prices.of('EUR').price?.compare(ExactRatio.fraction(10n, 9n))).toBe(0);
    expect(prices.of('SOL').price?.compare(ExactRatio.fraction(150n, 1n))).toBe(0);
    expect(prices.of('SOL')).toMatchObject({ path: ['sol_eur', 'usd_eur'] });
  });

  it('ignores a market without a positive mid', () => {
    expect(new UsdPrices(REFERENCES, [source('btc_usdt', '0')]).of('BTC')).toMatchObject({
      price: undefined,
    });
  });
});
