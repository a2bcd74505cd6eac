import { RecordedItem } from '../recording/recording-format';
import { RecordedMarket } from './recorded-market';

const INSTRUMENT = 'btc_usdt';

function hubItem(at: number, version: number, bids: string, snapshot = false): RecordedItem {
  const data =
    `{"type":2,"invocationId":"1","item":{"instrument":"btc_usdt","bids":[${bids}],"asks":[],` +
    `"version":${version},"snapshot":${snapshot}}}`;
  return { at, kind: 'hub', instrument: INSTRUMENT, data };
}

function checkpoint(at: number, version: number, state = 'live'): RecordedItem {
  const data = JSON.stringify({ version, state, bids: [['100', '1']], asks: [['101', '2']] });
  return { at, kind: 'checkpoint', instrument: INSTRUMENT, data };
}

describe('RecordedMarket', () => {
  it('starts from the checkpoint of a live book and applies the items after it', () => {
    const market = new RecordedMarket(INSTRUMENT, 0);
    market.take(checkpoint(1, 7));
    market.take(hubItem(2, 8, '{"price":99,"amount":3}'));
    market.take(hubItem(3, 9, '{"price":100,"amount":0}'));
    expect(market.book()).toEqual({ version: 9, state: 'live', bids: [['99', '3']], asks: [['101', '2']] });
    expect(market.lastEventAt).toBe(3);
  });

  it('leaves out a checkpoint of a book that was not live, and waits for a snapshot', () => {
    const market = new RecordedMarket(INSTRUMENT, 0);
    market.take(checkpoint(1, 7, 'resyncing'));
    expect(market.book().bids).toEqual([]);
    market.take(hubItem(2, 20, '{"price":98,"amount":1}', true));
    expect(market.book()).toEqual({ version: 20, state: 'live', bids: [['98', '1']], asks: [] });
  });

  it("ignores other markets' items and notes a feed's gaps, open or over", () => {
    const market = new RecordedMarket(INSTRUMENT, 0);
    market.take({ ...hubItem(1, 1, '', true), instrument: 'eth_usdt' });
    market.take({ at: 2, kind: 'gap', source: 'hub', data: 'down' });
    market.take({ at: 3, kind: 'gap', source: 'hub', data: 'up' });
    market.take({ at: 4, kind: 'gap', source: 'gateway', data: 'down' });
    expect(market.lastEventAt).toBeUndefined();
    expect(market.gaps).toEqual([
      { feed: 'hub', from: 2, to: 3 },
      { feed: 'gateway', from: 4 },
    ]);
  });

  it('keeps the figures last published', () => {
    const market = new RecordedMarket(INSTRUMENT, 0);
    market.take({ at: 5, kind: 'published', instrument: INSTRUMENT, data: '{"stats":{"last":"1"}}' });
    market.take({ at: 6, kind: 'published', instrument: 'eth_usdt', data: '{"stats":{"last":"2"}}' });
    expect(market.published).toEqual({ at: 5, figures: { stats: { last: '1' } } });
  });

  it('takes the newest trades and the figures last published from a checkpoint, for a file that holds no other', () => {
    const market = new RecordedMarket(INSTRUMENT, 0);
    const trade = (id: string, time: number) => ({ id, price: '100', amount: '1', side: 'buy', time });
    const published = { at: 1, figures: { stats: { last: '100' } } };
    const data = JSON.stringify({
      version: 7,
      state: 'live',
      bids: [],
      asks: [],
      trades: [trade('1', 10), trade('2', 11)],
      published,
    });
    market.take({ at: 20, kind: 'checkpoint', instrument: INSTRUMENT, data });
    expect(market.lastTrades(50).map((each) => each.id)).toEqual(['2', '1']);
    expect(market.published).toEqual(published);
  });
});
