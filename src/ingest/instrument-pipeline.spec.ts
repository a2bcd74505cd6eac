import fc from 'fast-check';
import { BookMessage, LevelUpdate } from '../market/book-update';
import { MarketInfo } from '../market/market-info';
import { Trade } from '../market/trade';
import { ResyncReason } from '../market/book-synchronizer';
import { BookFeed, BookFeedListener } from './feeds/book-feed';
import { InstrumentPipeline, PipelineOptions } from './instrument-pipeline';

const INSTRUMENT = 'btc_usdt';
const MARKET: MarketInfo = {
  instrument: INSTRUMENT,
  baseAsset: 'btc',
  quoteAsset: 'usdt',
  priceScale: 2,
  amountScale: 6,
  minAmount: '0.0001',
  priceDeviation: '0',
  makerFee: '0',
  takerFee: '0',
  hidden: false,
  status: 'Open',
  side: '',
  isCustom: false,
  createdAt: '',
  updatedAt: '',
};
const BASE: LevelUpdate[] = [
  { side: 'bid', price: '100', amount: '1' },
  { side: 'ask', price: '101', amount: '2' },
];

/** A quiet book confirmed every second, unless a test says otherwise. */
const CONFIRM_INTERVAL_MS = 1_000;

const TRADE: Trade = { id: '1', instrument: INSTRUMENT, price: '100', amount: '1', side: 'buy', time: 900 };

const message = (version: number, snapshot: boolean, updates: LevelUpdate[]): BookMessage => ({
  instrument: INSTRUMENT,
  version,
  snapshot,
  updates,
  time: version,
});

/** A book feed driven by the test: it hands out the listener and counts restarts. */
class ScriptedFeed implements BookFeed {
  readonly name = 'hub';
  listener?: BookFeedListener;
  restarts = 0;

  open(_market: MarketInfo, listener: BookFeedListener) {
    this.listener = listener;
    return { restart: () => (this.restarts += 1), close: () => undefined };
  }
}

/** A pipeline of MARKET on `feed`, its events unheard, with what a test sets in `options`. */
function quietPipeline(
  feed: BookFeed,
  now: () => number,
  options: Partial<PipelineOptions> = {},
): InstrumentPipeline {
  return new InstrumentPipeline({
    market: MARKET,
    bookFeed: feed,
    restSnapshot: async () => message(1, true, []),
    tradeFeed: 'live',
    sync: { recovery: 'reopen-stream' },
    now,
    confirmIntervalMs: CONFIRM_INTERVAL_MS,
    events: {
      onResync: () => undefined,
      onMalformed: () => undefined,
      onSnapshotFailed: () => undefined,
      onMessageApplied: () => undefined,
    },
    ...options,
  });
}

describe('InstrumentPipeline', () => {
  let now: number;
  let feed: ScriptedFeed;
  let rest: BookMessage;
  let resyncs: [ResyncReason, string | undefined][];
  let pipeline: InstrumentPipeline;
  /** What a write taken when each message was reported applied would have held. */
  let writesWhenApplied: { bookVersion?: number; trades: number }[];

  beforeEach(() => {
    writesWhenApplied = [];
    now = 1_000;
    feed = new ScriptedFeed();
    resyncs = [];
    pipeline = new InstrumentPipeline({
      market: MARKET,
      bookFeed: feed,
      restSnapshot: async () => rest,
      tradeFeed: 'live',
      sync: { recovery: 'reopen-stream', verifyWaitMs: 500 },
      now: () => now,
      confirmIntervalMs: CONFIRM_INTERVAL_MS,
      events: {
        onResync: (_instrument, reason, detail) => resyncs.push([reason, detail]),
        onMalformed: () => undefined,
        onSnapshotFailed: () => undefined,
        onMessageApplied: () => {
          const write = pipeline.takeWrite();
          writesWhenApplied.push({
            bookVersion: write?.head.bookVersion,
            trades: write?.tradesAdded?.length ?? 0,
          });
        },
      },
    });
    pipeline.start();
    feed.listener!.onMessage(message(10, true, BASE));
    expect(pipeline.state).toBe('live');
  });

  it('reports each message applied once a write would carry it, book and trades alike', () => {
    feed.listener!.onMessage(message(11, false, [{ side: 'bid', price: '100', amount: '3' }]));
    pipeline.addTrades([TRADE, { ...TRADE, id: '2', time: 950 }]);
    expect(writesWhenApplied.slice(1)).toEqual([
      { bookVersion: 11, trades: 0 },
      { bookVersion: 11, trades: 2 },
    ]);
  });

  it('gives every rewrite a trades revision of its own, so that no reader holds it for a list the store lost', () => {
    pipeline.addTrades([TRADE]);
    pipeline.replaceOnNextWrite();
    const rewrite = pipeline.takeWrite()!;
    pipeline.replaceOnNextWrite();
    const next = pipeline.takeWrite()!;
    expect([rewrite.replace, next.replace]).toEqual([true, true]);
    expect(next.tradesAdded).toEqual([TRADE]);
    expect(next.head.tradesRevision).toBeGreaterThan(rewrite.head.tradesRevision);
  });

  it('reports a resync that a REST snapshot heals at once', async () => {
    rest = message(10, true, [...BASE, { side: 'bid', price: '99', amount: '5' }]);
    await pipeline.verify();
    expect(pipeline.state).toBe('live');
    expect(resyncs.map(([reason]) => reason)).toEqual(['verify-failed']);
  });

  it('rebuilds a book that stayed behind the exchange from the REST snapshot, and reports the gap', async () => {
    rest = message(12, true, [...BASE, { side: 'ask', price: '102', amount: '3' }]);
    await pipeline.verify();
    now += 499;
    pipeline.tick();
    expect(pipeline.bookVersion).toBe(10);
    now += 1;
    pipeline.tick();
    expect(pipeline.bookVersion).toBe(12);
    expect(resyncs.map(([reason]) => reason)).toEqual(['gap']);
    const write = pipeline.takeWrite()!;
    expect(write.head).toMatchObject({ bookVersion: 12, syncState: 'live' });
  });

  it('reports a gap in the stream once, and reopens the stream', () => {
    feed.listener!.onMessage(message(12, false, []));
    now += 200;
    pipeline.tick();
    expect(pipeline.state).toBe('resync');
    expect(feed.restarts).toBe(1);
    expect(resyncs.map(([reason]) => reason)).toEqual(['gap']);
    feed.listener!.onMessage(message(13, true, BASE));
    expect(pipeline.state).toBe('live');
    expect(resyncs).toHaveLength(1);
  });
});

describe('InstrumentPipeline first write', () => {
  let now: number;
  let feed: ScriptedFeed;

  const open = (
    tradeFeed: 'live' | 'unavailable',
    firstWriteWaitMs?: number,
    confirmIntervalMs = CONFIRM_INTERVAL_MS,
  ): InstrumentPipeline => {
    const pipeline = quietPipeline(feed, () => now, { tradeFeed, firstWriteWaitMs, confirmIntervalMs });
    pipeline.fence = { owner: 'replica-a', token: 7 };
    pipeline.start();
    return pipeline;
  };

  beforeEach(() => {
    now = 1_000;
    feed = new ScriptedFeed();
  });

  it('waits for a live book and every trade of the window, then replaces the stored state under its fence', () => {
    const pipeline = open('live', 5_000);
    expect(pipeline.takeWrite()).toBeUndefined();
    feed.listener!.onMessage(message(10, true, BASE));
    expect(pipeline.takeWrite()).toBeUndefined();
    // A subscription's few last trades, while older ones are still paged from the history: writing
    // now would replace the stored trades of the last 24 hours with these few.
    pipeline.addTrades([TRADE]);
    expect(pipeline.takeWrite()).toBeUndefined();
    pipeline.markTradesCaughtUp();
    const write = pipeline.takeWrite()!;
    expect(write).toMatchObject({
      replace: true,
      fence: { owner: 'replica-a', token: 7 },
      head: { bookVersion: 10, syncState: 'live' },
      levels: { bids: [['100', '1']], asks: [['101', '2']] },
    });
  });

  it('needs only a live book without a trade feed', () => {
    const pipeline = open('unavailable', 5_000);
    feed.listener!.onMessage(message(10, true, BASE));
    expect(pipeline.takeWrite()).toMatchObject({ replace: true, head: { syncState: 'live' } });
  });

  it('writes what it has once the wait is over, and never waits again', () => {
    const pipeline = open('live', 5_000);
    now += 4_999;
    expect(pipeline.takeWrite()).toBeUndefined();
    now += 1;
    expect(pipeline.takeWrite()).toMatchObject({ replace: true, head: { syncState: 'syncing' } });
    feed.listener!.onInterrupted('dropped');
    pipeline.replaceOnNextWrite();
    expect(pipeline.takeWrite()).toMatchObject({ replace: true, head: { syncState: 'syncing' } });
  });

  it('writes at once without a wait', () => {
    expect(open('live').takeWrite()).toMatchObject({ replace: true, head: { syncState: 'syncing' } });
  });

  it('starts a taken-over window from the stored trades, so that a first write before the history keeps the day', () => {
    const stored: Trade[] = [
      { ...TRADE, id: '1', time: 500 },
      { ...TRADE, id: '2', amount: '3', time: 800 },
    ];
    const pipeline = open('live', 5_000);
    pipeline.seedTrades(stored);
    feed.listener!.onMessage(message(10, true, BASE));
    // The subscription's last trades overlap the stored ones; the history before them is still paged.
    pipeline.addTrades([
      { ...TRADE, id: '2', amount: '3', time: 800 },
      { ...TRADE, id: '3', time: 950 },
    ]);
    now += 5_000;
    const write = pipeline.takeWrite()!;
    expect(write.replace).toBe(true);
    expect(write.tradesAdded?.map((trade) => trade.id)).toEqual(['1', '2', '3']);
    expect(write.head.stats.baseVolume).toBe('5');
    expect(write.head.lastTrade).toMatchObject({ time: 950 });
  });

  it('reaches back for the history from its own feed, not from seeded trades', () => {
    const pipeline = open('live', 5_000);
    pipeline.seedTrades([{ ...TRADE, id: '7', time: 990 }]);
    expect(pipeline.newestTradeTime()).toBeUndefined();
    pipeline.addTrades([{ ...TRADE, id: '5', time: 950 }]);
    expect(pipeline.newestTradeTime()).toBe(950);
  });

  it('confirms a quiet live book once per confirmation interval, and not while the feed is down', () => {
    const pipeline = open('unavailable', 0, 5_000);
    feed.listener!.onMessage(message(10, true, BASE));
    expect(pipeline.takeWrite()?.head.confirmedAt).toBe(now);
    const confirmed = now;
    now += 4_999;
    pipeline.tick();
    expect(pipeline.takeWrite()).toBeUndefined();
    now += 1;
    pipeline.tick();
    expect(pipeline.takeWrite()?.head.confirmedAt).toBe(confirmed + 5_000);
    feed.listener!.onInterrupted('dropped');
    pipeline.takeWrite();
    now += 10_000;
    pipeline.tick();
    expect(pipeline.takeWrite()).toBeUndefined();
  });

  it('tells the bar sealer which hours the feed added trades to, not those of seeded trades', () => {
    const HOUR = 3_600_000;
    const pipeline = open('live', 5_000);
    now = 10 * HOUR;
    pipeline.seedTrades([{ ...TRADE, id: '1', time: 7 * HOUR + 5 }]);
    expect(pipeline.takeTradeHours()).toEqual([]);
    pipeline.addTrades([
      { ...TRADE, id: '2', time: 8 * HOUR + 5 },
      { ...TRADE, id: '3', time: 8 * HOUR + 9 },
      { ...TRADE, id: '4', time: 9 * HOUR },
      { ...TRADE, id: '1', time: 7 * HOUR + 5 },
    ]);
    expect(pipeline.takeTradeHours()).toEqual([8 * HOUR, 9 * HOUR]);
    expect(pipeline.takeTradeHours()).toEqual([]);
    expect(pipeline.tradesBetween(7 * HOUR, 9 * HOUR).map((trade) => trade.id)).toEqual(['1', '2', '3']);
    expect(pipeline.tradesComplete).toBe(false);
    pipeline.markTradesCaughtUp();
    expect(pipeline.tradesComplete).toBe(true);
  });

  it('takes no seed once it has written', () => {
    const pipeline = open('live');
    pipeline.takeWrite();
    pipeline.seedTrades([TRADE]);
    expect(pipeline.tradeCount).toBe(0);
    expect(pipeline.takeWrite()).toBeUndefined();
  });
});

describe('InstrumentPipeline with a snapshot loaded over several turns', () => {
  const levels = (count: number, amount: string): LevelUpdate[] => [
    ...Array.from({ length: count }, (_, i): LevelUpdate => ({ side: 'bid', price: `${99 - i}`, amount })),
    ...Array.from({ length: count }, (_, i): LevelUpdate => ({ side: 'ask', price: `${101 + i}`, amount })),
  ];
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  let feed: ScriptedFeed;
  let pipeline: InstrumentPipeline;
  /** The stored book, changed only by the pipeline's writes. */
  let stored: { bid: Map<string, string>; ask: Map<string, string> };

  const write = () => {
    const taken = pipeline.takeWrite();
    if (taken?.replace) {
      stored.bid.clear();
      stored.ask.clear();
    }
    for (const [side, written] of [
      ['bid', taken?.levels?.bids ?? []],
      ['ask', taken?.levels?.asks ?? []],
    ] as const)
      for (const [price, amount] of written)
        if (amount === '0') stored[side].delete(price);
        else stored[side].set(price, amount);
    return taken;
  };
  const storedLevels = (side: 'bid' | 'ask') =>
    [...stored[side]].sort(([a], [b]) => (side === 'bid' ? 1 : -1) * (Number(b) - Number(a)));

  beforeEach(() => {
    feed = new ScriptedFeed();
    stored = { bid: new Map(), ask: new Map() };
    pipeline = quietPipeline(feed, () => 1_000, {
      tradeFeed: 'unavailable',
      sync: { recovery: 'reopen-stream', snapshotSliceLevels: 5 },
    });
    pipeline.start();
    feed.listener!.onMessage(message(10, true, levels(3, '1')));
  });

  afterEach(() => pipeline.stop());

  it('writes the book as it was until the last slice, then the whole new book with the deltas of meanwhile', async () => {
    // The first snapshot takes turns too: 6 levels gathered and 6 keyed, in slices of 5.
    while (pipeline.state !== 'live') await nextTurn();
    write();
    feed.listener!.onMessage(message(20, true, levels(12, '2')));
    feed.listener!.onMessage(message(21, false, [{ side: 'bid', price: '99', amount: '0' }]));
    expect(pipeline.state).toBe('live');
    expect(pipeline.bookVersion).toBe(10);
    expect(write()?.head.bookVersion).toBe(10);
    expect(storedLevels('bid')).toEqual([
      ['99', '1'],
      ['98', '1'],
      ['97', '1'],
    ]);
    let turns = 0;
    while (pipeline.bookVersion === 10) {
      await nextTurn();
      turns++;
      write();
      if (pipeline.bookVersion === 10) expect(stored.ask.size).toBe(3);
    }
    expect(turns).toBeGreaterThan(5);
    expect(pipeline.bookVersion).toBe(21);
    expect(write()).toBeUndefined();
    expect(storedLevels('bid')).toHaveLength(11);
    expect(storedLevels('bid')[0]).toEqual(['98', '2']);
    expect(storedLevels('ask')).toHaveLength(12);
  });

  it('drops a load under way when the stream is interrupted', async () => {
    while (pipeline.state !== 'live') await nextTurn();
    feed.listener!.onMessage(message(20, true, levels(12, '2')));
    await nextTurn();
    feed.listener!.onInterrupted('dropped');
    for (let i = 0; i < 20; i++) await nextTurn();
    expect(pipeline.state).toBe('resync');
    expect(pipeline.bookVersion).toBe(10);
    expect(pipeline.counters.loadsAbandoned).toBe(1);
  });

  it('stops loading when stopped, and goes on when started again', async () => {
    pipeline.stop();
    for (let i = 0; i < 20; i++) await nextTurn();
    expect(pipeline.state).toBe('syncing');
    pipeline.start();
    for (let i = 0; i < 20 && pipeline.state !== 'live'; i++) await nextTurn();
    expect(pipeline.state).toBe('live');
    expect(pipeline.bookVersion).toBe(10);
  });
});

describe('InstrumentPipeline newest known trade', () => {
  const DAY = 86_400_000;
  let now: number;
  let feed: ScriptedFeed;

  const open = (tradeFeed: 'live' | 'unavailable'): InstrumentPipeline => {
    const pipeline = quietPipeline(feed, () => now, { tradeFeed });
    pipeline.start();
    feed.listener!.onMessage(message(10, true, BASE));
    return pipeline;
  };

  beforeEach(() => {
    now = 10 * DAY;
    feed = new ScriptedFeed();
  });

  it('writes no last trade before any is known', () => {
    expect(open('live').takeWrite()!.head).not.toHaveProperty('lastTrade');
    expect(open('unavailable').takeWrite()!.head).not.toHaveProperty('lastTrade');
  });

  it("keeps a snapshot's trades older than the window as the last trade, beside empty 24-hour figures", () => {
    const pipeline = open('live');
    pipeline.addTrades([
      { ...TRADE, id: '7', price: '99.5', time: now - 3 * DAY },
      { ...TRADE, id: '6', price: '98', time: now - 4 * DAY },
    ]);
    const { head } = pipeline.takeWrite()!;
    expect(head.stats).toMatchObject({ last: '0', tradeCount: 0 });
    expect(head.lastTrade).toEqual({ price: '99.5', time: now - 3 * DAY });
  });

  it('remembers the newest trade after it leaves the window', () => {
    const pipeline = open('live');
    pipeline.addTrades([{ ...TRADE, id: '8', price: '101', time: now - 1_000 }]);
    expect(pipeline.takeWrite()!.head).toMatchObject({
      stats: { last: '101', tradeCount: 1 },
      lastTrade: { price: '101', time: now - 1_000 },
    });
    now += DAY;
    pipeline.tick();
    expect(pipeline.takeWrite()!.head).toMatchObject({
      stats: { last: '0', tradeCount: 0 },
      lastTrade: { price: '101', time: now - DAY - 1_000 },
    });
  });

  it('trims the stored trades by whole minutes once they leave the window', () => {
    const pipeline = open('live');
    // now is a minute's start: the first trade is in the previous minute, the second 30 s into this one.
    pipeline.addTrades([
      { ...TRADE, id: '8', time: now - 1_000 },
      { ...TRADE, id: '9', time: now + 30_000 },
    ]);
    expect(pipeline.takeWrite()).not.toHaveProperty('tradesBefore');
    now += DAY + 40_000;
    pipeline.tick();
    const write = pipeline.takeWrite()!;
    expect(write.head.stats).toMatchObject({ tradeCount: 0 });
    // Both left the window, but only the minute of the first ended before its cut-off.
    expect(write.tradesBefore).toBe(now - DAY - 40_000 - 1);
  });

  it("takes Level 1's last traded price without a trade feed, none while it reports 0", () => {
    const pipeline = open('unavailable');
    pipeline.setLevel1('0', 0, '0', now);
    expect(pipeline.takeWrite()!.head).not.toHaveProperty('lastTrade');
    pipeline.setLevel1('100.25', now - 2 * DAY, '0', now);
    expect(pipeline.takeWrite()!.head.lastTrade).toEqual({ price: '100.25', time: now - 2 * DAY });
  });
});

describe('InstrumentPipeline REST fallback', () => {
  let now: number;
  let feed: ScriptedFeed;
  let requests: AbortSignal[];
  let failures: string[];
  let pipeline: InstrumentPipeline;

  beforeEach(() => {
    now = 1_000;
    feed = new ScriptedFeed();
    requests = [];
    failures = [];
    pipeline = new InstrumentPipeline({
      market: MARKET,
      bookFeed: feed,
      // A request that waits for the rate-limited REST until it is withdrawn.
      restSnapshot: (_instrument, signal) =>
        new Promise<BookMessage>((_resolve, reject) => {
          requests.push(signal!);
          signal!.addEventListener('abort', () => reject(signal!.reason as Error));
        }),
      tradeFeed: 'unavailable',
      sync: { snapshotWaitMs: 1_000 },
      now: () => now,
      confirmIntervalMs: CONFIRM_INTERVAL_MS,
      events: {
        onResync: () => undefined,
        onMalformed: () => undefined,
        onSnapshotFailed: (_instrument, error) => failures.push(error.message),
        onMessageApplied: () => undefined,
      },
    });
    pipeline.start();
    feed.listener!.onOpened!();
    now += 1_000;
    pipeline.tick();
    expect(requests).toHaveLength(1);
    expect(requests[0].aborted).toBe(false);
  });

  it("is withdrawn once the stream's own snapshot makes the book live, and counts as no failure", async () => {
    feed.listener!.onMessage(message(10, true, BASE));
    expect(pipeline.state).toBe('live');
    expect(requests[0].aborted).toBe(true);
    await Promise.resolve();
    expect(failures).toEqual([]);
  });

  it('is withdrawn when the instrument stops being ingested here', async () => {
    pipeline.stop();
    expect(requests[0].aborted).toBe(true);
    await Promise.resolve();
    expect(failures).toEqual([]);
  });
});

describe('InstrumentPipeline ticked only when due', () => {
  const DAY_MS = 86_400_000;

  type Step =
    | { kind: 'delta'; skip: boolean; price: number }
    | { kind: 'snapshot' }
    | { kind: 'interrupt' }
    | { kind: 'trade'; age: number }
    | { kind: 'wait'; ms: number };

  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constant('delta' as const),
      skip: fc.boolean(),
      price: fc.integer({ min: 90, max: 99 }),
    }),
    fc.record({ kind: fc.constant('snapshot' as const) }),
    fc.record({ kind: fc.constant('interrupt' as const) }),
    fc.record({
      kind: fc.constant('trade' as const),
      age: fc.oneof(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: DAY_MS - 3_000, max: DAY_MS })),
    }),
    fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 1_500 }) }),
  );

  it('writes what a pipeline ticked in every pass writes, step by step', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let now = 2 * DAY_MS;
        const open = () => {
          const feed = new ScriptedFeed();
          const pipeline = quietPipeline(feed, () => now);
          pipeline.start();
          return { feed, pipeline };
        };
        const always = open();
        const whenDue = open();
        let version = 0;
        let tradeId = 0;
        for (const next of steps) {
          for (const { feed, pipeline } of [always, whenDue]) {
            if (next.kind === 'delta') {
              const updates = [{ side: 'bid' as const, price: String(next.price), amount: '1' }];
              feed.listener!.onMessage(message(version + (next.skip ? 2 : 1), false, updates));
            } else if (next.kind === 'snapshot') feed.listener!.onMessage(message(version + 1, true, BASE));
            else if (next.kind === 'interrupt') feed.listener!.onInterrupted('dropped');
            else if (next.kind === 'trade')
              pipeline.addTrades([{ ...TRADE, id: String(tradeId + 1), time: now - next.age }]);
          }
          if (next.kind === 'delta' || next.kind === 'snapshot')
            version += next.kind === 'delta' && next.skip ? 2 : 1;
          if (next.kind === 'trade') tradeId++;
          if (next.kind === 'wait') now += next.ms;
          always.pipeline.tick();
          whenDue.pipeline.tickIfDue(now);
          expect(whenDue.pipeline.takeWrite()).toEqual(always.pipeline.takeWrite());
          expect(whenDue.feed.restarts).toBe(always.feed.restarts);
        }
      }),
    );
  });
});
