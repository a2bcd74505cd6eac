import { PriceLevel } from '../book-update';
import { OrderBook } from '../order-book';
import { BookChannelFeed } from './book-channel-feed';
import { bookChecksum } from './book-checksum';
import { publishedLevel } from './published-level';

const scales = { priceScale: 2, amountScale: 3 };
const channel = 'book.btc_usdt';

function liveFeed(): BookChannelFeed {
  const feed = new BookChannelFeed(channel, scales);
  feed.replace({
    version: 10,
    time: 1000,
    bids: [
      ['99', '1'],
      ['100.5', '0.25'],
    ],
    asks: [['101', '2']],
  });
  return feed;
}

describe('BookChannelFeed', () => {
  it('is not live, and has no snapshot, until it has a full book', () => {
    const feed = new BookChannelFeed(channel, scales);
    expect(feed.live).toBe(false);
    expect(() => feed.snapshot()).toThrow('book.btc_usdt: no snapshot while the book is not live');
    expect(feed.apply({ version: 1, time: 1, bids: [['1', '1']], asks: [] })).toBeUndefined();
    expect(feed.suspend()).toBeUndefined();
  });

  it('writes a snapshot of the whole book at the market scales, best first, with its checksum', () => {
    const feed = liveFeed();
    const bids: PriceLevel[] = [
      ['100.50', '0.250'],
      ['99.00', '1.000'],
    ];
    const asks: PriceLevel[] = [['101.00', '2.000']];
    expect(feed.snapshot()).toEqual({
      type: 'snapshot',
      channel,
      seq: 10,
      bids,
      asks,
      checksum: bookChecksum(bids, asks),
      ts: 1000,
    });
    expect(Object.keys(feed.snapshot())).toEqual([
      'type',
      'channel',
      'seq',
      'bids',
      'asks',
      'checksum',
      'ts',
    ]);
  });

  it('builds the snapshot once per version', () => {
    const feed = liveFeed();
    expect(feed.snapshot()).toBe(feed.snapshot());
    const before = feed.snapshot();
    feed.apply({ version: 11, time: 1100, bids: [['98', '1']], asks: [] });
    expect(feed.snapshot()).not.toBe(before);
    expect(feed.snapshot().seq).toBe(11);
  });

  it('reads a full book as its levels applied in order, as a flush after a snapshot gives them', () => {
    const feed = new BookChannelFeed(channel, scales);
    feed.replace({
      version: 3,
      time: 5,
      bids: [
        ['10', '1'],
        ['9', '2'],
        ['10', '0'],
        ['8', '4'],
        ['8', '5'],
      ],
      asks: [['11', '0']],
    });
    expect(feed.snapshot()).toMatchObject({
      bids: [
        ['9.00', '2.000'],
        ['8.00', '5.000'],
      ],
      asks: [],
    });
  });

  it('turns a flush into an update of the changed levels with the checksum after it', () => {
    const feed = liveFeed();
    const event = feed.apply({
      fromVersion: 10,
      version: 12,
      time: 1200,
      bids: [
        ['100.5', '0'],
        ['100.25', '3'],
      ],
      asks: [['101', '1.5']],
    });
    if (event?.kind !== 'update') throw new Error(`expected an update, got ${JSON.stringify(event)}`);
    const { update } = event;
    expect(update).toMatchObject({
      channel,
      seq: 12,
      bids: [
        ['100.50', '0'],
        ['100.25', '3.000'],
      ],
      asks: [['101.00', '1.500']],
      ts: 1200,
    });
    expect(update.checksum).toBe(feed.snapshot().checksum);
    expect(feed.snapshot().bids).toEqual([
      ['100.25', '3.000'],
      ['99.00', '1.000'],
    ]);
    expect(update.message(10)).toEqual({
      type: 'update',
      channel,
      seq: 12,
      prevSeq: 10,
      bids: update.bids,
      asks: update.asks,
      checksum: update.checksum,
      ts: 1200,
    });
    expect(Object.keys(update.message(10))).toEqual([
      'type',
      'channel',
      'seq',
      'prevSeq',
      'bids',
      'asks',
      'checksum',
      'ts',
    ]);
  });

  it('gives the same update message to every connection with the same prevSeq', () => {
    const event = liveFeed().apply({ version: 11, time: 1, bids: [['1', '1']], asks: [] });
    if (event?.kind !== 'update') throw new Error('expected an update');
    expect(event.update.message(10)).toBe(event.update.message(10));
    expect(event.update.message(7)).toMatchObject({ prevSeq: 7 });
  });

  it('drops a flush it already holds', () => {
    const feed = liveFeed();
    expect(feed.apply({ version: 10, time: 1, bids: [['1', '1']], asks: [] })).toBeUndefined();
    expect(feed.apply({ version: 9, time: 1, bids: [['1', '1']], asks: [] })).toBeUndefined();
    expect(feed.snapshot().bids).toHaveLength(2);
  });

  it('sends nothing for a flush that changed no level, but holds its version', () => {
    const feed = liveFeed();
    expect(feed.apply({ version: 11, time: 1100, bids: [], asks: [] })).toBeUndefined();
    expect(feed.version).toBe(11);
    expect(feed.snapshot()).toMatchObject({ seq: 11, ts: 1100 });
  });

  it('suspends itself when a flush does not start from its version, and stays so until replaced', () => {
    const feed = liveFeed();
    expect(feed.apply({ fromVersion: 11, version: 12, time: 1, bids: [['1', '1']], asks: [] })).toEqual({
      kind: 'suspended',
    });
    expect(feed.live).toBe(false);
    expect(
      feed.apply({ fromVersion: 12, version: 13, time: 1, bids: [['1', '1']], asks: [] }),
    ).toBeUndefined();
    expect(feed.replace({ version: 13, time: 2, bids: [], asks: [] })).toEqual({ kind: 'replaced' });
    expect(feed.live).toBe(true);
    expect(feed.snapshot()).toMatchObject({ seq: 13, bids: [], asks: [], checksum: 0 });
  });

  it('suspends once', () => {
    const feed = liveFeed();
    expect(feed.suspend()).toEqual({ kind: 'suspended' });
    expect(feed.suspend()).toBeUndefined();
    expect(() => feed.snapshot()).toThrow('not live');
  });

  it('takes a replacing book at a lower version', () => {
    const feed = liveFeed();
    feed.replace({ version: 2, time: 3, bids: [['5', '5']], asks: [] });
    expect(feed.snapshot()).toMatchObject({ seq: 2 });
    expect(feed.apply({ version: 3, time: 4, bids: [['5', '0']], asks: [] })).toMatchObject({
      kind: 'update',
    });
  });

  it('gives every update the checksum of the book after it, below the checksummed levels or within them', () => {
    const feed = new BookChannelFeed(channel, scales);
    const reference = new OrderBook({ trackChanges: false });
    const bids: PriceLevel[] = Array.from({ length: 40 }, (_, i) => [String(1000 - i), '1']);
    const asks: PriceLevel[] = Array.from({ length: 40 }, (_, i) => [String(1001 + i), '1']);
    feed.replace({ version: 1, time: 1, bids, asks });
    applyTo(reference, bids, asks);
    const changes: [PriceLevel[], PriceLevel[]][] = [
      [[['965', '2']], []], // below the 25 levels of each side
      [[], [['1039', '0']]],
      [[['976', '0']], []], // the 25th bid: the 26th moves up
      [[['999.5', '3']], [['1001', '0']]],
      [[['999.505', '1.2345']], []], // more decimals than the scale, beside a padded price
      [[['999.5', '0']], [['1030', '5']]],
      [[['990', '0']], [['1030.001', '5']]],
    ];
    changes.forEach(([bidChanges, askChanges], index) => {
      const event = feed.apply({ version: 2 + index, time: 2, bids: bidChanges, asks: askChanges });
      if (event?.kind !== 'update') throw new Error('expected an update');
      applyTo(reference, bidChanges, askChanges);
      const published = (side: 'bid' | 'ask'): PriceLevel[] =>
        reference.levels(side).map((level) => publishedLevel(level, scales));
      expect(event.update.checksum).toBe(
        bookChecksum(published('bid').slice(0, 25), published('ask').slice(0, 25)),
      );
      expect(feed.snapshot()).toMatchObject({ bids: published('bid'), asks: published('ask') });
    });
  });

  it('holds the levels in canonical decimals, as the listing serves them, and publishes them at the scales', () => {
    const feed = liveFeed();
    expect(feed.levels('bid')).toEqual([
      ['100.5', '0.25'],
      ['99', '1'],
    ]);
    expect(feed.published('bid')).toEqual([
      ['100.50', '0.250'],
      ['99.00', '1.000'],
    ]);
    expect(feed.levelCount).toBe(3);
  });

  it('applies a flush nobody streams without building its update, and checksums the next one right', () => {
    const feed = new BookChannelFeed(channel, scales);
    const reference = new OrderBook({ trackChanges: false });
    const bids: PriceLevel[] = Array.from({ length: 30 }, (_, i) => [String(1000 - i), '1']);
    feed.replace({ version: 1, time: 1, bids, asks: [] });
    applyTo(reference, bids, []);
    expect(feed.apply({ version: 2, time: 2, bids: [['1000', '0']], asks: [] }, false)).toBeUndefined();
    applyTo(reference, [['1000', '0']], []);
    expect(feed.version).toBe(2);
    // A change below the checksummed levels, which alone would keep the checksum held.
    const event = feed.apply({ version: 3, time: 3, bids: [['900', '1']], asks: [] });
    applyTo(reference, [['900', '1']], []);
    if (event?.kind !== 'update') throw new Error('expected an update');
    const published = reference.levels('bid').map((level) => publishedLevel(level, scales));
    expect(event.update.checksum).toBe(bookChecksum(published.slice(0, 25), []));
  });
});

function applyTo(book: OrderBook, bids: readonly PriceLevel[], asks: readonly PriceLevel[]): void {
  for (const [price, amount] of bids) book.apply({ side: 'bid', price, amount });
  for (const [price, amount] of asks) book.apply({ side: 'ask', price, amount });
}
