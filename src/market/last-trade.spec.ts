import { lastTradeOf, newestTrade } from './last-trade';
import { Trade } from './trade';

const trade = (id: string, time: number, price = '1'): Trade => ({
  id,
  instrument: 'btc_usdt',
  price,
  amount: '1',
  side: 'buy',
  time,
});

describe('newestTrade', () => {
  it('is the newest by time, then by numeric trade id, in any order of arrival', () => {
    expect(newestTrade(undefined, [])).toBeUndefined();
    expect(newestTrade(undefined, [trade('3', 20), trade('1', 30), trade('2', 10)])?.id).toBe('1');
    expect(newestTrade(undefined, [trade('10', 30), trade('9', 30)])?.id).toBe('10');
  });

  it('keeps the known trade when nothing newer arrives, and returns it as it is', () => {
    const known = trade('5', 50);
    expect(newestTrade(known, [trade('4', 40), trade('5', 50)])).toBe(known);
    expect(newestTrade(known, [trade('6', 60, '2')])).toMatchObject({ id: '6', price: '2', time: 60 });
  });

  it('gives the price and time of the newest trade as the head records it', () => {
    const newest = newestTrade(undefined, [trade('1', 1_000), trade('2', 2_000, '3.5')]);
    expect(lastTradeOf(newest!)).toEqual({ price: '3.5', time: 2_000 });
  });
});
