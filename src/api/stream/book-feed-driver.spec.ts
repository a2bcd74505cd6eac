import { PriceLevel } from '../../market/book-update';
import { BookChannelEvent } from '../../market/stream/book-channel-event';
import { BookChannelFeed } from '../../market/stream/book-channel-feed';
import { BookChannelSequencer } from '../../market/stream/book-channel-sequencer';
import { BookReader } from '../../market/stream/testing/book-reader';
import { BookView, ChangeNotice } from '../../store/state-store';
import { BookFeedDriver } from './book-feed-driver';

const instrument = 'btc_usdt';

function view(version: number, bids: PriceLevel[], asks: PriceLevel[], live = true): BookView {
  return { instrument, version, updatedAt: version * 10, syncState: live ? 'live' : 'resync', bids, asks };
}

/** A driver, a feed, and one connection's reader applying every message. */
function setUp() {
  const feed = new BookChannelFeed(`book.${instrument}`, { priceScale: 2, amountScale: 1 });
  const sequencer = new BookChannelSequencer(feed, { maxBacklog: 100 });
  const events: BookChannelEvent[] = [];
  const driver = new BookFeedDriver(feed, instrument, fakeStore(), (event) => {
    events.push(event);
    sequencer.onEvent(event);
  });
  const reader = new BookReader();
  const read = () => {
    const outcomes: string[] = [];
    for (let message = sequencer.next(); message; message = sequencer.next())
      outcomes.push(reader.read(message));
    return outcomes;
  };
  return { feed, driver, events, reader, read };
}

function fakeStore() {
  return {
    readBook: () => Promise.resolve(undefined),
    onChange: (_listener: (notice: ChangeNotice) => void) => () => undefined,
    onReset: (_listener: () => void) => () => undefined,
  };
}

describe('BookFeedDriver', () => {
  it('replaces the feed with the first read, then applies only the levels that changed', () => {
    const { driver, events, reader, read } = setUp();
    driver.use(
      view(
        3,
        [
          ['100', '1'],
          ['99', '2'],
        ],
        [['101', '1']],
      ),
    );
    expect(read()).toEqual(['snapshot']);
    driver.use(
      view(
        5,
        [
          ['100', '1'],
          ['98', '4'],
        ],
        [['101', '1.5']],
      ),
    );
    const last = events.at(-1);
    if (last?.kind !== 'update') throw new Error('expected an update');
    expect(last.update.bids).toEqual([
      ['98.00', '4.0'],
      ['99.00', '0'],
    ]);
    expect(last.update.asks).toEqual([['101.00', '1.5']]);
    expect(read()).toEqual(['update']);
    expect(reader.levels('bid')).toEqual([
      ['100.00', '1.0'],
      ['98.00', '4.0'],
    ]);
    expect(reader.seq).toBe(5);
    expect(reader.problems).toEqual([]);
  });

  it('sends nothing for a read at the version it holds', () => {
    const { driver, events } = setUp();
    driver.use(view(3, [['100', '1']], []));
    driver.use(view(3, [['100', '1']], []));
    expect(events.map((event) => event.kind)).toEqual(['replaced']);
  });

  it('suspends while the stored book is not live or missing, and replaces it when it is back', () => {
    const { driver, events, reader, read } = setUp();
    driver.use(view(3, [['100', '1']], []));
    read();
    driver.use(view(4, [['100', '1']], [], false));
    driver.use(undefined);
    expect(read()).toEqual(['resyncing']);
    driver.use(view(9, [['97', '1']], [['102', '3']]));
    expect(events.map((event) => event.kind)).toEqual(['replaced', 'suspended', 'replaced']);
    expect(read()).toEqual(['snapshot']);
    expect(reader.levels('ask')).toEqual([['102.00', '3.0']]);
  });

  it('replaces the feed with a read at a lower version, as after the store lost its contents', () => {
    const { driver, events } = setUp();
    driver.use(view(30, [['100', '1']], []));
    driver.use(view(2, [['100', '2']], []));
    expect(events.map((event) => event.kind)).toEqual(['replaced', 'replaced']);
  });

  it('follows the store from start to stop: reads on notices, suspends on a failed read or a reset', async () => {
    let stored: BookView | Error = view(1, [['100', '1']], []);
    const listeners: { change?: (notice: ChangeNotice) => void; reset?: () => void } = {};
    const store = {
      readBook: () => (stored instanceof Error ? Promise.reject(stored) : Promise.resolve(stored)),
      onChange: (listener: (notice: ChangeNotice) => void) => {
        listeners.change = listener;
        return () => (listeners.change = undefined);
      },
      onReset: (listener: () => void) => {
        listeners.reset = listener;
        return () => (listeners.reset = undefined);
      },
    };
    const feed = new BookChannelFeed(`book.${instrument}`, { priceScale: 2, amountScale: 1 });
    const kinds: string[] = [];
    const driver = new BookFeedDriver(feed, instrument, store, (event) => kinds.push(event.kind));
    const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
    const notice = (version: number, named = instrument): ChangeNotice => ({
      kind: 'instrument',
      instrument: named,
      bookVersion: version,
      tradesRevision: 0,
    });
    driver.start();
    await settled();
    stored = view(2, [['100', '2']], []);
    listeners.change?.(notice(2, 'eth_usdt'));
    await settled();
    expect(kinds).toEqual(['replaced']);
    listeners.change?.(notice(2));
    await settled();
    expect(kinds).toEqual(['replaced', 'update']);
    stored = new Error('unreachable');
    listeners.change?.(notice(3));
    await settled();
    expect(kinds).toEqual(['replaced', 'update', 'suspended']);
    stored = view(3, [['100', '3']], []);
    listeners.reset?.();
    await settled();
    expect(kinds).toEqual(['replaced', 'update', 'suspended', 'replaced']);
    driver.stop();
    expect(listeners).toEqual({ change: undefined, reset: undefined });
  });
});
