import { MarketCatalog, MarketInfo } from '../../market/market-info';
import { EMPTY_STATS } from '../../market/market-stats';
import { Trade } from '../../market/trade';
import {
  InstrumentChange,
  ChangeNotice,
  InstrumentHead,
  InstrumentWrite,
  PriceLevel,
  StateStore,
  WriteFence,
} from '../state-store';

/** A store opened for one test, with what the contract needs around it. */
export interface StoreUnderTest {
  readonly store: StateStore;
  /** A second store over the same data: another connection for Redis, the same store in memory. */
  openPeer(): Promise<StateStore>;
  /** Sets (or with `undefined` removes) the instrument's lease, as the lease holder would. */
  setLease(instrument: string, fence: WriteFence | undefined): Promise<void>;
  /** Closes the store, its peers and anything else opened for the test. */
  close(): Promise<void>;
}

const BTC = 'btc_usdt';
const ETH = 'eth_usdt';
const T0 = 1_700_000_000_000;

export function head(
  instrument: string,
  bookVersion: number,
  extra: Partial<InstrumentHead> = {},
): InstrumentHead {
  return {
    instrument,
    bookVersion,
    bookUpdatedAt: T0 + bookVersion,
    syncState: 'live',
    stats: EMPTY_STATS,
    tradesRevision: 0,
    tradeFeed: 'live',
    lastEventAt: T0 + bookVersion,
    confirmedAt: T0 + bookVersion,
    ...extra,
  };
}

/** An open market of the catalogue, 2-decimal prices and 8-decimal amounts, with `extra` on top. */
export function market(instrument: string, extra: Partial<MarketInfo> = {}): MarketInfo {
  return {
    instrument,
    baseAsset: instrument.split('_')[0].toUpperCase(),
    quoteAsset: instrument.split('_')[1]?.toUpperCase() ?? 'USDT',
    priceScale: 2,
    amountScale: 8,
    minAmount: '0.00000001',
    priceDeviation: '0.1',
    makerFee: '0.001',
    takerFee: '0.002',
    hidden: false,
    status: 'Open',
    side: 'Both',
    isCustom: false,
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-06-01T00:00:00Z',
    ...extra,
  };
}

export function trade(id: string, time: number, extra: Partial<Trade> = {}): Trade {
  return { id, instrument: BTC, price: '27000.5', amount: '0.25', side: 'buy', time, ...extra };
}

/** Polls until `check` passes (returns without throwing) or the time is up, then fails with its error. */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

function collectNotices(store: StateStore): { notices: ChangeNotice[]; stop: () => void } {
  const notices: ChangeNotice[] = [];
  const stop = store.onChange((notice) => notices.push(notice));
  return { notices, stop };
}

/**
 * Registers the behaviour every `StateStore` must show, for one implementation. `open` is called
 * before each test and must give a store with no data.
 */
export function describeStateStoreContract(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`${name} honours the StateStore contract`, () => {
    let subject: StoreUnderTest;
    let store: StateStore;

    beforeEach(async () => {
      subject = await open();
      store = subject.store;
    });

    afterEach(async () => {
      await subject.close();
    });

    it('knows nothing of an instrument never written', async () => {
      await expect(store.readBook('nope_usdt')).resolves.toBeUndefined();
      await expect(store.readTrades('nope_usdt')).resolves.toEqual([]);
      await expect(store.readHeads(['nope_usdt'])).resolves.toEqual(new Map());
      await expect(store.readCatalog()).resolves.toBeUndefined();
      await expect(store.write([])).resolves.toEqual([]);
    });

    it('applies a replace, then incremental level changes, keeping both sides exactly best first', async () => {
      const first = await store.write([
        {
          instrument: BTC,
          replace: true,
          head: head(BTC, 1, { syncState: 'syncing' }),
          levels: {
            bids: [
              ['0.999999999999999999', '1'],
              ['1.000000000000000001', '2'],
              ['1', '3'],
              ['0.5', '4'],
            ],
            asks: [
              ['1.000000000000000003', '5'],
              ['1.000000000000000002', '6'],
              ['10', '7'],
              ['9.99', '8'],
            ],
          },
        },
      ]);
      expect(first).toEqual([{ instrument: BTC, result: 'written' }]);
      expect(await store.readBook(BTC)).toEqual({
        instrument: BTC,
        version: 1,
        updatedAt: T0 + 1,
        syncState: 'syncing',
        bids: [
          ['1.000000000000000001', '2'],
          ['1', '3'],
          ['0.999999999999999999', '1'],
          ['0.5', '4'],
        ],
        asks: [
          ['1.000000000000000002', '6'],
          ['1.000000000000000003', '5'],
          ['9.99', '8'],
          ['10', '7'],
        ],
      });

      await store.write([
        {
          instrument: BTC,
          replace: false,
          head: head(BTC, 2),
          levels: {
            bids: [
              ['1', '30'],
              ['0.5', '0'],
              ['0.999999999999999998', '9'],
              ['0.42', '0'],
            ],
            asks: [
              ['10', '0'],
              ['1.000000000000000004', '1.5'],
            ],
          },
        },
      ]);
      expect(await store.readBook(BTC)).toEqual({
        instrument: BTC,
        version: 2,
        updatedAt: T0 + 2,
        syncState: 'live',
        bids: [
          ['1.000000000000000001', '2'],
          ['1', '30'],
          ['0.999999999999999999', '1'],
          ['0.999999999999999998', '9'],
        ],
        asks: [
          ['1.000000000000000002', '6'],
          ['1.000000000000000003', '5'],
          ['1.000000000000000004', '1.5'],
          ['9.99', '8'],
        ],
      });

      // A later change of the same price in one write wins, as if the changes applied in order.
      await store.write([
        {
          instrument: BTC,
          replace: false,
          head: head(BTC, 3),
          levels: {
            bids: [
              ['1', '0'],
              ['1', '31'],
              ['0.999999999999999998', '5'],
              ['0.999999999999999998', '0'],
            ],
            asks: [],
          },
        },
      ]);
      const third = await store.readBook(BTC);
      expect(third?.bids).toEqual([
        ['1.000000000000000001', '2'],
        ['1', '31'],
        ['0.999999999999999999', '1'],
      ]);

      // A replace is the complete state: levels it does not name are gone.
      await store.write([
        { instrument: BTC, replace: true, head: head(BTC, 4), levels: { bids: [['2', '1']], asks: [] } },
      ]);
      const fourth = await store.readBook(BTC);
      expect(fourth?.bids).toEqual([['2', '1']]);
      expect(fourth?.asks).toEqual([]);
      expect(fourth?.version).toBe(4);
    });

    it('applies a whole deep book and a day of trades in one write, a later entry of a price winning', async () => {
      const depth = 5_000;
      const bids = Array.from({ length: depth }, (_, i) => [`${10_000 - i}.5`, `${i + 1}`] as const);
      const asks = Array.from({ length: depth }, (_, i) => [`${20_000 + i}.25`, `0.${i + 1}`] as const);
      const trades = Array.from({ length: 3_000 }, (_, i) => trade(String(i + 1), T0 - 3_000 + i));
      await store.write([
        {
          instrument: BTC,
          replace: true,
          head: head(BTC, 1, { tradesRevision: 1 }),
          levels: {
            // The first bid given again as removed, the first ask given again with a new amount.
            bids: [...bids, [bids[0][0], '0']],
            asks: [...asks, [asks[0][0], '7']],
          },
          tradesAdded: trades,
        },
      ]);
      const book = await store.readBook(BTC);
      expect(book?.bids).toEqual(bids.slice(1));
      expect(book?.asks).toEqual([[asks[0][0], '7'], ...asks.slice(1)]);
      expect(await store.readTrades(BTC)).toEqual(trades);
    });

    it('stores a trade written twice once and returns trades oldest first, by time then numeric id', async () => {
      await store.write([
        {
          instrument: BTC,
          replace: true,
          head: head(BTC, 1, { tradesRevision: 1 }),
          tradesAdded: [trade('9', T0), trade('10', T0), trade('8', T0 - 1), trade('9', T0)],
        },
      ]);
      await store.write([
        {
          instrument: BTC,
          replace: false,
          head: head(BTC, 1, { tradesRevision: 2 }),
          tradesAdded: [
            trade('10', T0),
            trade('12', T0 + 2, {
              side: 'sell',
              price: '0.000000000000000001',
              amount: '123456789.123456789',
            }),
            trade('11', T0 + 1),
          ],
        },
      ]);
      expect(await store.readTrades(BTC)).toEqual([
        trade('8', T0 - 1),
        trade('9', T0),
        trade('10', T0),
        trade('11', T0 + 1),
        trade('12', T0 + 2, { side: 'sell', price: '0.000000000000000001', amount: '123456789.123456789' }),
      ]);

      // A replace without trades leaves none.
      await store.write([{ instrument: BTC, replace: true, head: head(BTC, 2) }]);
      expect(await store.readTrades(BTC)).toEqual([]);
    });

    it('reads the trades from a time on with the count and the oldest of all stored, as a full read has them', async () => {
      await expect(store.readTradesFrom(BTC, T0)).resolves.toEqual({ trades: [], count: 0 });
      await store.write([
        {
          instrument: BTC,
          replace: true,
          head: head(BTC, 1),
          tradesAdded: [trade('10', T0 + 2), trade('9', T0 + 2), trade('8', T0 + 1), trade('7', T0)],
        },
      ]);
      const all = await store.readTrades(BTC);
      for (const from of [T0 - 1, T0, T0 + 1, T0 + 2, T0 + 3]) {
        await expect(store.readTradesFrom(BTC, from)).resolves.toEqual({
          trades: all.filter((stored) => stored.time >= from),
          count: 4,
          oldest: all[0],
        });
      }
      expect((await store.readTradesFrom(BTC, T0 + 2)).trades.map((stored) => stored.id)).toEqual([
        '9',
        '10',
      ]);
    });

    it('drops the trades at or before tradesBefore, including ones added by the same write', async () => {
      await store.write([
        {
          instrument: BTC,
          replace: true,
          head: head(BTC, 1),
          tradesAdded: [trade('1', T0 + 1000), trade('2', T0 + 2000), trade('3', T0 + 3000)],
        },
      ]);
      await store.write([
        {
          instrument: BTC,
          replace: false,
          head: head(BTC, 2),
          tradesAdded: [trade('4', T0 + 1500), trade('5', T0 + 4000)],
          tradesBefore: T0 + 2000,
        },
      ]);
      expect((await store.readTrades(BTC)).map((stored) => stored.id)).toEqual(['3', '5']);
    });

    it('trims the trades at or before a time for any instrument, leaving heads and later trades alone', async () => {
      const written = head(BTC, 1, { tradesRevision: 3 });
      await store.write([
        {
          instrument: BTC,
          replace: true,
          head: written,
          tradesAdded: [trade('1', T0 + 1000), trade('2', T0 + 2000), trade('3', T0 + 3000)],
        },
        {
          instrument: ETH,
          replace: true,
          head: head(ETH, 1),
          tradesAdded: [trade('7', T0 + 500, { instrument: ETH })],
        },
      ]);
      await expect(store.trimTrades([BTC, ETH, 'sol_eur', BTC], T0 + 2000)).resolves.toBe(3);
      expect((await store.readTrades(BTC)).map((stored) => stored.id)).toEqual(['3']);
      expect(await store.readTrades(ETH)).toEqual([]);
      expect((await store.readHeads([BTC])).get(BTC)).toEqual(written);
      await expect(store.trimTrades([BTC], T0 + 2000)).resolves.toBe(0);
      await expect(store.trimTrades([], T0 + 9000)).resolves.toBe(0);
    });

    it('returns the heads it was given, the latest of each instrument, and skips unknown ones', async () => {
      const btc = head(BTC, 7, {
        syncState: 'resync',
        bestBid: ['26999.999999999999999999', '0.5'],
        bestAsk: ['27000.000000000000000001', '1.25'],
        stats: {
          last: '27000.5',
          open: '26000',
          high: '27100',
          low: '25900.000000000000000001',
          baseVolume: '12.345678901234567891',
          quoteVolume: '333333.333333333333333333',
          tradeCount: 1234,
          source: 'candles',
        },
        lastTrade: { price: '27000.5', time: T0 - 1 },
        tradesRevision: 42,
        tradeFeed: 'unavailable',
      });
      await store.write([
        { instrument: BTC, replace: true, head: head(BTC, 6) },
        { instrument: ETH, replace: true, head: head(ETH, 1) },
      ]);
      await store.write([{ instrument: BTC, replace: false, head: btc }]);
      const heads = await store.readHeads([BTC, 'nope_usdt', ETH, BTC]);
      expect([...heads.keys()].sort()).toEqual([BTC, ETH]);
      expect(heads.get(BTC)).toEqual(btc);
      expect(heads.get(ETH)).toEqual(head(ETH, 1));
      await expect(store.readHeads([])).resolves.toEqual(new Map());
    });

    it('round-trips the catalogue and announces it', async () => {
      const catalog: MarketCatalog = {
        markets: [market(BTC, { gateway: { instrumentId: 5, symbol: 'BTCUSDT' } })],
        assets: [
          {
            symbol: 'BTC',
            name: 'Bitcoin',
            canWithdraw: true,
            canDeposit: false,
            minWithdraw: '0.001',
            maxWithdraw: '100',
          },
        ],
        refreshedAt: T0,
      };
      const { notices } = collectNotices(store);
      await store.writeCatalog(catalog);
      expect(await store.readCatalog()).toEqual(catalog);
      await eventually(() => expect(notices).toEqual([{ kind: 'catalog', refreshedAt: T0 }]));

      await store.writeCatalog({ ...catalog, markets: [], refreshedAt: T0 + 1 });
      expect(await store.readCatalog()).toEqual({ ...catalog, markets: [], refreshedAt: T0 + 1 });
    });

    it('announces every written instrument, after the write, to every store over the same data', async () => {
      const peer = await subject.openPeer();
      const own = collectNotices(store);
      const seenByPeer = collectNotices(peer);
      let calledDuringWrite = false;
      const stopSync = store.onChange(() => (calledDuringWrite = true));
      const writing = store.write([
        { instrument: BTC, replace: true, head: head(BTC, 3, { tradesRevision: 5 }) },
        { instrument: ETH, replace: true, head: head(ETH, 9, { tradesRevision: 1 }) },
      ]);
      expect(calledDuringWrite).toBe(false);
      await expect(writing).resolves.toEqual([
        { instrument: BTC, result: 'written' },
        { instrument: ETH, result: 'written' },
      ]);
      stopSync();
      // One notice per write, carrying what the write changed.
      const expected: ChangeNotice[] = [
        {
          kind: 'instrument',
          instrument: BTC,
          bookVersion: 3,
          tradesRevision: 5,
          change: {
            instrument: BTC,
            replace: true,
            head: head(BTC, 3, { tradesRevision: 5 }),
            bids: [],
            asks: [],
            trades: [],
          },
        },
        {
          kind: 'instrument',
          instrument: ETH,
          bookVersion: 9,
          tradesRevision: 1,
          change: {
            instrument: ETH,
            replace: true,
            head: head(ETH, 9, { tradesRevision: 1 }),
            bids: [],
            asks: [],
            trades: [],
          },
        },
      ];
      await eventually(() => expect(own.notices).toEqual(expected));
      await eventually(() => expect(seenByPeer.notices).toEqual(expected));

      // A removed listener hears nothing more, while the others still do.
      own.stop();
      await store.write([{ instrument: BTC, replace: false, head: head(BTC, 4) }]);
      await eventually(() => expect(seenByPeer.notices).toHaveLength(3));
      expect(own.notices).toHaveLength(2);
    });

    it('announces what each write changed of a followed instrument, from the versions it held, to every follower', async () => {
      const peer = await subject.openPeer();
      const changes: InstrumentChange[] = [];
      const seenByPeer: InstrumentChange[] = [];
      const heard = collectNotices(peer);
      const own = store.followInstrument(BTC, (change) => changes.push(change));
      const other = peer.followInstrument(BTC, (change) => seenByPeer.push(change));
      await Promise.all([own.ready, other.ready]);
      await store.write([
        {
          instrument: BTC,
          replace: true,
          head: head(BTC, 3),
          levels: {
            bids: [
              ['100', '1'],
              ['99', '2'],
            ],
            asks: [['101', '1']],
          },
        },
        { instrument: ETH, replace: true, head: head(ETH, 1), levels: { bids: [['5', '1']], asks: [] } },
      ]);
      await store.write([
        {
          instrument: BTC,
          replace: false,
          head: head(BTC, 7, { tradesRevision: 2 }),
          levels: {
            bids: [
              ['99', '0'],
              ['98', '4'],
              ['98', '5'],
            ],
            asks: [],
          },
          tradesAdded: [trade('12', T0 + 5, { side: 'sell' }), trade('11', T0 + 4)],
        },
      ]);
      await subject.setLease(BTC, { owner: 'ingest-a', token: 7 });
      await store.write([
        { instrument: BTC, replace: false, head: head(BTC, 9), fence: { owner: 'ingest-b', token: 7 } },
      ]);
      const expected: InstrumentChange[] = [
        {
          instrument: BTC,
          replace: true,
          head: head(BTC, 3),
          bids: [
            ['100', '1'],
            ['99', '2'],
          ],
          asks: [['101', '1']],
          trades: [],
        },
        {
          instrument: BTC,
          fromVersion: 3,
          replace: false,
          head: head(BTC, 7, { tradesRevision: 2 }),
          // A price given twice is announced once, with its last amount, as it was stored.
          bids: [
            ['99', '0'],
            ['98', '5'],
          ],
          asks: [],
          fromTradesRevision: 0,
          // The trades the write added, in its order.
          trades: [trade('12', T0 + 5, { side: 'sell' }), trade('11', T0 + 4)],
        },
      ];
      await eventually(() => expect(changes).toEqual(expected));
      await eventually(() => expect(seenByPeer).toEqual(expected));
      // The same changes as the notices of every listener carry: both come from one announcement.
      await eventually(() =>
        expect(
          heard.notices.flatMap((notice) =>
            notice.kind === 'instrument' && notice.instrument === BTC ? [notice.change] : [],
          ),
        ).toEqual(expected),
      );
      heard.stop();

      // A closed follower hears nothing more, while the others still do.
      own.close();
      await subject.setLease(BTC, undefined);
      await store.write([{ instrument: BTC, replace: false, head: head(BTC, 8) }]);
      await eventually(() => expect(seenByPeer).toHaveLength(3));
      expect(seenByPeer[2]).toMatchObject({
        fromVersion: 7,
        bids: [],
        asks: [],
        fromTradesRevision: 2,
        trades: [],
      });
      expect(changes).toHaveLength(2);
      other.close();
    });

    it('applies a fenced write only while the lease holds exactly its owner and token', async () => {
      const original: InstrumentWrite = {
        instrument: BTC,
        replace: true,
        head: head(BTC, 1),
        levels: { bids: [['100', '1']], asks: [['101', '1']] },
        tradesAdded: [trade('1', T0)],
      };
      await store.write([original]);
      const before = { book: await store.readBook(BTC), trades: await store.readTrades(BTC) };
      const { notices } = collectNotices(store);

      const change = (fence: WriteFence, version: number): InstrumentWrite => ({
        instrument: BTC,
        replace: version % 2 === 0,
        head: head(BTC, version),
        levels: { bids: [['100', '0']], asks: [['102', '3']] },
        tradesAdded: [trade('2', T0 + 1)],
        tradesBefore: T0,
        fence,
      });

      await expect(store.write([change({ owner: 'ingest-a', token: 7 }, 2)])).resolves.toEqual([
        { instrument: BTC, result: 'fenced' },
      ]);

      await subject.setLease(BTC, { owner: 'ingest-a', token: 7 });
      const outcomes = await store.write([
        change({ owner: 'ingest-a', token: 6 }, 2),
        change({ owner: 'ingest-b', token: 7 }, 3),
        change({ owner: 'ingest', token: 7 }, 4),
        { instrument: ETH, replace: true, head: head(ETH, 1) },
      ]);
      expect(outcomes).toEqual([
        { instrument: BTC, result: 'fenced' },
        { instrument: BTC, result: 'fenced' },
        { instrument: BTC, result: 'fenced' },
        { instrument: ETH, result: 'written' },
      ]);
      expect(await store.readBook(BTC)).toEqual(before.book);
      expect(await store.readTrades(BTC)).toEqual(before.trades);
      expect((await store.readHeads([BTC])).get(BTC)).toEqual(head(BTC, 1));
      await eventually(() =>
        expect(notices).toContainEqual(
          expect.objectContaining({ kind: 'instrument', instrument: ETH, bookVersion: 1, tradesRevision: 0 }),
        ),
      );
      expect(notices.filter((notice) => notice.kind === 'instrument' && notice.bookVersion > 1)).toEqual([]);

      await expect(store.write([change({ owner: 'ingest-a', token: 7 }, 5)])).resolves.toEqual([
        { instrument: BTC, result: 'written' },
      ]);
      expect(await store.readBook(BTC)).toEqual({
        ...before.book,
        version: 5,
        updatedAt: T0 + 5,
        bids: [],
        asks: [
          ['101', '1'],
          ['102', '3'],
        ],
      });
      expect(await store.readTrades(BTC)).toEqual([trade('2', T0 + 1)]);

      // A new holder's token fences the old one out.
      await subject.setLease(BTC, { owner: 'ingest-b', token: 8 });
      await expect(store.write([change({ owner: 'ingest-a', token: 7 }, 6)])).resolves.toEqual([
        { instrument: BTC, result: 'fenced' },
      ]);
      await subject.setLease(BTC, undefined);
      await expect(store.write([change({ owner: 'ingest-b', token: 8 }, 6)])).resolves.toEqual([
        { instrument: BTC, result: 'fenced' },
      ]);
      expect((await store.readBook(BTC))?.version).toBe(5);
    });

    it('reads the heads of thousands of instruments at once, each its own', async () => {
      const instruments = Array.from({ length: 2_500 }, (_, i) => `m${i}_usdt`);
      await store.write(
        instruments.map((instrument, i) => ({ instrument, replace: true, head: head(instrument, i + 1) })),
      );
      const asked = instruments.flatMap((instrument, i) =>
        i % 100 === 0 ? [instrument, `gone${i}_usdt`] : [instrument],
      );
      const heads = await store.readHeads(asked);
      expect(heads.size).toBe(instruments.length);
      for (const [i, instrument] of instruments.entries())
        expect(heads.get(instrument)).toEqual(head(instrument, i + 1));
    });

    it('applies a batch of hundreds of writes in order, deep books among them, each fenced on its own', async () => {
      const instruments = Array.from({ length: 150 }, (_, i) => `m${i}_usdt`);
      // Every third instrument's lease is held by another writer: its writes are fenced.
      for (const [i, instrument] of instruments.entries())
        if (i % 3 === 2) await subject.setLease(instrument, { owner: 'other', token: 9 });
      const deep: PriceLevel[] = Array.from({ length: 12_000 }, (_, i) => [`${1 + i}.5`, '1']);
      const { notices } = collectNotices(store);
      const batch: InstrumentWrite[] = instruments.flatMap((instrument, i) => [
        {
          instrument,
          replace: true,
          head: head(instrument, 1),
          levels: { bids: i % 50 === 0 ? deep : [['10', '1']], asks: [['20', String(i + 1)]] },
          fence: { owner: 'me', token: 9 },
        },
        {
          instrument,
          replace: false,
          head: head(instrument, 2),
          levels: { bids: [['10', '0']], asks: [['21', '2']] },
          fence: i % 3 === 2 ? undefined : { owner: 'me', token: 9 },
        },
      ]);
      for (const [i, instrument] of instruments.entries())
        if (i % 3 !== 2) await subject.setLease(instrument, { owner: 'me', token: 9 });

      const outcomes = await store.write(batch);

      expect(outcomes).toEqual(
        batch.map((write, index) => ({
          instrument: write.instrument,
          result: index % 2 === 0 && instruments.indexOf(write.instrument) % 3 === 2 ? 'fenced' : 'written',
        })),
      );
      for (const [i, instrument] of instruments.entries()) {
        const book = await store.readBook(instrument);
        const fenced = i % 3 === 2;
        // A fenced replace left nothing; the unfenced change after it went through on its own.
        expect({ instrument, version: book?.version, bids: book?.bids.length, asks: book?.asks }).toEqual({
          instrument,
          version: 2,
          bids: fenced || i % 50 !== 0 ? 0 : deep.length,
          asks: fenced
            ? [['21', '2']]
            : [
                ['20', String(i + 1)],
                ['21', '2'],
              ],
        });
      }
      await eventually(() => expect(notices).toHaveLength(batch.length - 50));
    });

    it('never lets a reader see half a write', async () => {
      const reader = await subject.openPeer();
      const depth = 150;
      const levels = (amount: number): { bids: PriceLevel[]; asks: PriceLevel[] } => ({
        bids: Array.from(
          { length: depth },
          (_, i) => [`${1000 + i}.000000000000000001`, String(amount)] as const,
        ),
        asks: Array.from({ length: depth }, (_, i) => [`${2000 + i}.5`, String(amount)] as const),
      });
      await store.write([{ instrument: BTC, replace: true, head: head(BTC, 1), levels: levels(1) }]);

      let writing = true;
      const writer = (async () => {
        for (let version = 2; version <= 40; version += 1) {
          // Replaces and incremental writes alternate; each one changes every level.
          await store.write([
            {
              instrument: BTC,
              replace: version % 2 === 0,
              head: head(BTC, version),
              levels: levels(version),
            },
          ]);
        }
        writing = false;
      })();
      let reads = 0;
      const torn: string[] = [];
      while (writing) {
        const book = await reader.readBook(BTC);
        reads += 1;
        const amounts = new Set([...(book?.bids ?? []), ...(book?.asks ?? [])].map(([, amount]) => amount));
        const consistent =
          book?.bids.length === depth &&
          book.asks.length === depth &&
          amounts.size === 1 &&
          amounts.has(String(book.version));
        if (!consistent) torn.push(`version ${book?.version}: amounts ${[...amounts].join(',')}`);
      }
      await writer;
      expect(torn).toEqual([]);
      expect(reads).toBeGreaterThan(5);
      expect((await reader.readBook(BTC))?.version).toBe(40);
    });

    it('keeps no reference to the data it was given or returned', async () => {
      const bids: [string, string][] = [['1', '1']];
      const tradesAdded = [trade('1', T0)];
      await store.write([
        { instrument: BTC, replace: true, head: head(BTC, 1), levels: { bids, asks: [] }, tradesAdded },
      ]);
      bids[0][1] = '999';
      bids.push(['2', '2']);
      (tradesAdded[0] as { price: string }).price = '999';

      const book = await store.readBook(BTC);
      (book?.bids as PriceLevel[]).push(['3', '3']);
      const trades = await store.readTrades(BTC);
      trades.pop();

      expect((await store.readBook(BTC))?.bids).toEqual([['1', '1']]);
      expect(await store.readTrades(BTC)).toEqual([trade('1', T0)]);
    });

    it('reports itself reachable', async () => {
      const health = await store.health();
      expect(health.reachable).toBe(true);
      expect(health.latencyMs).toBeGreaterThanOrEqual(0);
      const stop = store.onReset(() => undefined);
      expect(typeof stop).toBe('function');
      stop();
    });
  });
}
