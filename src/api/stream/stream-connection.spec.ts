import { EventEmitter } from 'node:events';
import { Registry } from 'prom-client';
import type { WebSocket } from 'ws';
import { PriceLevel } from '../../market/book-update';
import { MarketInfo } from '../../market/market-info';
import { MarketSummary } from '../../market/market-summary';
import { BookChannelMessage } from '../../market/stream/book-channel-message';
import { BookReader } from '../../market/stream/testing/book-reader';
import { MemoryStateStore } from '../../store/memory-state-store';
import { head } from '../../store/testing/state-store-contract';
import { MarketBooks } from '../views/market-books';
import { StreamConnection } from './stream-connection';
import { StreamMetrics } from './stream-metrics';
import { TickerFeed } from './ticker-feed';
import { TradeFeeds } from './trade-feeds';
import { CandleFeeds } from './candle-feeds';
import { NO_EARLIER_BARS } from './earlier-bars';
import { TradeColumns } from '../../market/trade-columns';

const instrument = 'btc_usdt';
const market = { instrument, priceScale: 2, amountScale: 1 } as MarketInfo;

/** A socket whose frames are written out only when the test says so. */
class HeldSocket extends EventEmitter {
  readonly readyState = 1;
  readonly sent: Record<string, unknown>[] = [];
  private readonly unwritten: (() => void)[] = [];

  send(bytes: Buffer, options: { binary: boolean }, written: () => void): void {
    expect(options.binary).toBe(false);
    this.sent.push(JSON.parse(bytes.toString()) as Record<string, unknown>);
    this.unwritten.push(written);
  }

  writeOut(): void {
    for (let done = this.unwritten.shift(); done; done = this.unwritten.shift()) done();
  }

  receive(frame: unknown): void {
    this.emit('message', Buffer.from(JSON.stringify(frame)), false);
  }
}

/** A store holding one book that changes one level per version, and the books it feeds, as the read model does. */
class ChangingStore {
  private readonly store = new MemoryStateStore();
  private version = 1;
  readonly books = new MarketBooks(this, Number.POSITIVE_INFINITY);

  constructor() {
    this.store.onChange((notice) => notice.kind === 'instrument' && this.books.apply(notice.change));
    // The memory store applies a write at once; only its announcement waits for a microtask.
    void this.store.write([
      { instrument, replace: true, head: head(instrument, 1), levels: { bids: [['101', '1']], asks: [] } },
    ]);
  }

  readBook = (name: string) => this.store.readBook(name);

  async change(): Promise<void> {
    this.version++;
    const bids: PriceLevel[] = [
      [String(100 + this.version - 1), '0'],
      [String(100 + this.version), '1'],
    ];
    await this.store.write([
      { instrument, replace: false, head: head(instrument, this.version), levels: { bids, asks: [] } },
    ]);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A store that announces no change. */
const silent = {
  followInstrument: () => ({ ready: Promise.resolve(), close: () => undefined }),
  onReset: () => () => undefined,
};
const noTrades = { ...silent, readTradesFrom: () => Promise.resolve({ trades: [], count: 0 }) };
const noTicker = { markets: () => ({ generation: 0, markets: [] }) };
const notReady = { ready: false, onListingChange: () => () => undefined };

const limits = {
  maxSubscriptions: 4,
  maxFrameBytes: 1024,
  maxBacklog: 20,
  heartbeatMs: 60_000,
  maxConnectionsPerAddress: 10,
  subscribeRate: 2,
  maxBehindMs: 1_000,
};

/** Whether the connections' market list is loaded; a test may say it is not yet. */
const listing = { ready: true };

function connect(
  books: MarketBooks,
  channels = ['book.btc_usdt'],
  trades = new TradeFeeds(noTrades, () => 0),
  ticker = new TickerFeed(noTicker, notReady),
  clock = { now: 0 },
  metrics?: StreamMetrics,
) {
  const socket = new HeldSocket();
  const connection = new StreamConnection(socket as unknown as WebSocket, {
    findMarket: (name) => (name === instrument ? market : undefined),
    listingReady: () => listing.ready,
    books,
    trades,
    candles: new CandleFeeds(silent, () => Promise.resolve(TradeColumns.of([])), NO_EARLIER_BARS),
    ticker,
    limits,
    metrics,
    now: () => clock.now,
  });
  socket.receive({ op: 'subscribe', channels });
  return Object.assign(socket, { connection });
}

function readAll(socket: HeldSocket, reader = new BookReader()): BookReader {
  for (const frame of socket.sent)
    if (frame.channel === 'book.btc_usdt' && frame.type !== 'subscribed')
      reader.read(frame as unknown as BookChannelMessage);
  return reader;
}

describe('StreamConnection', () => {
  it('lets a reader that does not keep up fall behind alone, and catches it up with one snapshot', async () => {
    const store = new ChangingStore();
    const { books } = store;
    const slow = connect(books);
    const fast = connect(books);
    // Both have the snapshot before the book changes: the updates are what is counted.
    while (!fast.sent.some((frame) => frame.type === 'snapshot'))
      await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 100; i++) {
      await store.change();
      fast.writeOut();
    }
    const types = (socket: HeldSocket) => socket.sent.map((frame) => frame.type);
    expect(types(fast).filter((type) => type === 'update')).toHaveLength(100);
    expect(slow.sent.length).toBeLessThanOrEqual(16);
    slow.writeOut();
    await new Promise((resolve) => setImmediate(resolve));
    const caughtUp = types(slow).slice(-1)[0];
    expect(caughtUp).toBe('snapshot');
    for (const socket of [slow, fast]) {
      const reader = readAll(socket);
      expect(reader.problems).toEqual([]);
      expect(reader.seq).toBe(101);
    }
    expect(books.size).toBe(1);
    slow.emit('close');
    fast.emit('close');
    expect(books.streamedCount).toBe(0);
  });

  it('sends the ticker records on subscribe, then new trades, and releases both on close', async () => {
    const trades = new TradeFeeds(
      {
        readTradesFrom: () =>
          Promise.resolve({
            trades: [{ id: '7', instrument, price: '100', amount: '2', side: 'buy', time: 5 }],
            count: 1,
          }),
        ...silent,
      },
      () => 1,
    );
    const summary = { last: '100', lowestAsk: '0', highestBid: '0', isFrozen: false } as MarketSummary;
    const ticker = new TickerFeed(
      { markets: () => ({ generation: 1, markets: [{ market, id: '1', summary }] }) },
      { ready: true, onListingChange: () => () => undefined },
    );
    const socket = connect(new ChangingStore().books, ['ticker', 'trades.btc-usdt'], trades, ticker);
    // The trades are read, then sent on a later turn of the event loop.
    while (socket.sent.length < 4) await new Promise((resolve) => setImmediate(resolve));
    socket.writeOut();
    expect(socket.sent.map((frame) => [frame.type, frame.channel])).toEqual([
      ['subscribed', 'ticker'],
      ['subscribed', 'trades.btc_usdt'],
      ['ticker', 'ticker'],
      ['trades', 'trades.btc_usdt'],
    ]);
    expect(socket.sent[2]).toMatchObject({ market: 'BTC_USDT', last: '100', isFrozen: '0' });
    expect(socket.sent[3].trades).toEqual([
      { id: '7', price: '100.00', amount: '2.0', side: 'buy', time: 5 },
    ]);
    expect(trades.size).toBe(1);
    socket.emit('close');
    expect(trades.size).toBe(0);
  });

  it('answers not_ready for a market before the market list is loaded, unknown_channel after', () => {
    listing.ready = false;
    try {
      const socket = connect(new ChangingStore().books, ['book.xyz_usdt']);
      listing.ready = true;
      socket.receive({ op: 'subscribe', channels: ['trades.xyz_usdt'] });
      expect(socket.sent.map((frame) => frame.code)).toEqual(['not_ready', 'unknown_channel']);
      socket.emit('close');
    } finally {
      listing.ready = true;
    }
  });

  it('answers subscribe frames over the rate with rate_limited, and takes them again later', () => {
    const clock = { now: 0 };
    const socket = connect(new ChangingStore().books, ['ticker'], undefined, undefined, clock);
    socket.receive({ op: 'unsubscribe', channels: ['ticker'] });
    socket.receive({ op: 'subscribe', channels: ['ticker'] });
    socket.receive({ op: 'ping' });
    expect(socket.sent.map((frame) => frame.code ?? frame.type)).toEqual([
      'subscribed',
      'unsubscribed',
      'rate_limited',
      'pong',
    ]);
    clock.now = 500;
    socket.receive({ op: 'subscribe', channels: ['ticker'] });
    expect(socket.sent.slice(-1)[0]).toEqual({ type: 'subscribed', channel: 'ticker' });
    socket.emit('close');
  });

  it('closes with 4008 a reader whose socket stays behind, and not one that catches up in time', async () => {
    const store = new ChangingStore();
    const { books } = store;
    const clock = { now: 0 };
    const slow = connect(books, undefined, undefined, undefined, clock);
    const late = connect(books, undefined, undefined, undefined, clock);
    const closes: unknown[][] = [];
    Object.assign(slow, { close: (...args: unknown[]) => closes.push(args) });
    Object.assign(late, { close: () => closes.push(['late']) });
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 30; i++) await store.change();
    clock.now = 999;
    slow.connection.closeIfTooSlow(clock.now);
    late.writeOut();
    clock.now = 1_000;
    slow.connection.closeIfTooSlow(clock.now);
    late.connection.closeIfTooSlow(clock.now);
    expect(closes).toEqual([[4008, 'too slow']]);
    expect(books.streamedCount).toBe(1);
    late.emit('close');
    expect(books.streamedCount).toBe(0);
  });

  it('counts the frames it sends, a conflation and a close as too slow', async () => {
    const store = new ChangingStore();
    const { books } = store;
    const clock = { now: 0 };
    const registry = new Registry();
    const metrics = new StreamMetrics(registry, () => []);
    const slow = connect(books, undefined, undefined, undefined, clock, metrics);
    Object.assign(slow, { close: () => undefined });
    slow.receive({ op: 'publish' });
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 60; i++) await store.change();
    clock.now = 1_000;
    slow.connection.closeIfTooSlow(clock.now);
    const counted = new Map<string, number>();
    for (const metric of await registry.getMetricsAsJSON())
      for (const { labels, value } of metric.values)
        counted.set(`${metric.name} ${Object.values(labels).join(',')}`.trim(), value);
    const types = slow.sent.map((frame) => frame.type);
    expect(counted.get('mdg_stream_messages_sent_total update')).toBe(
      types.filter((type) => type === 'update').length,
    );
    expect(counted.get('mdg_stream_messages_sent_total subscribed')).toBe(1);
    expect(counted.get('mdg_stream_errors_sent_total unknown_op')).toBe(1);
    expect(counted.get('mdg_stream_conflations_total book')).toBe(1);
    expect(counted.get('mdg_stream_slow_closes_total')).toBe(1);
    slow.emit('close');
  });
});
