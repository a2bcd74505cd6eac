import { TradeColumns } from '../../market/trade-columns';
import { trade } from '../../store/testing/state-store-contract';
import { withHeldTrades } from './held-trades';

const held = TradeColumns.of([trade('1', 100), trade('2', 200), trade('3', 200), trade('4', 300)]);
const ids = (trades: { id: string }[] | undefined) => trades?.map(({ id }) => id);

describe('withHeldTrades', () => {
  it('is undefined when the store holds every held trade of the window, newer ones or not', () => {
    expect(withHeldTrades(held, held.toArray(), 0)).toBeUndefined();
    expect(withHeldTrades(held, [...held.toArray(), trade('5', 300), trade('6', 400)], 0)).toBeUndefined();
    // Those that left the window may be gone.
    expect(withHeldTrades(held, held.toArray().slice(2), 200)).toBeUndefined();
  });

  it('adds back, in order, the held trades of the window the store lost, wherever they were', () => {
    const stored = [trade('2', 200), trade('5', 350)];
    expect(ids(withHeldTrades(held, stored, 0))).toEqual(['1', '2', '3', '4', '5']);
    expect(ids(withHeldTrades(held, stored, 100))).toEqual(['2', '3', '4', '5']);
    expect(ids(withHeldTrades(held, [], 0))).toEqual(['1', '2', '3', '4']);
  });

  it('tells trades of one time apart by id, in whatever order the store gives them', () => {
    const reordered = [trade('1', 100), trade('3', 200), trade('2', 200), trade('4', 300)];
    expect(withHeldTrades(held, reordered, 0)).toBeUndefined();
    const withoutTwo = [trade('1', 100), trade('3', 200), trade('4', 300)];
    expect(ids(withHeldTrades(held, withoutTwo, 0))).toEqual(['1', '2', '3', '4']);
  });

  it('keeps the texts of a trade it adds back', () => {
    const odd = trade('007', 100, { price: '1e-9', amount: '0.10', side: 'sell' });
    expect(withHeldTrades(TradeColumns.of([odd]), [], 0)).toEqual([odd]);
  });
});
