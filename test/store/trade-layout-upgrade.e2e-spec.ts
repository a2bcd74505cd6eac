import { randomUUID } from 'node:crypto';
import Redis, { ChainableCommander } from 'ioredis';
import { coingeckoTradeRecord } from '../../src/api/coingecko/coingecko-records';
import {
  readHistoricalTradesQuery,
  selectHistoricalTrades,
} from '../../src/api/coingecko/historical-trades-query';
import { tradeRecord } from '../../src/api/listing/listing-records';
import { ListingService } from '../../src/api/views/listing-service';
import { MarketViews } from '../../src/api/views/market-views';
import { toJson } from '../../src/market/json-number';
import { MarketInfo } from '../../src/market/market-info';
import { Trade } from '../../src/market/trade';
import { TradeColumns } from '../../src/market/trade-columns';
import { instrumentNotice } from '../../src/store/change-notice';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { eventually, head, trade } from '../../src/store/testing/state-store-contract';
import { compareTradesOldestFirst } from '../../src/store/store-order';
import { decodeTradeMember, encodeTradeMember } from '../../src/store/trade-member';
import { appendTail } from '../../src/store/trade-tail';
import { InstrumentKeys } from '../../src/store/keys';
import { LuaScript } from '../../src/store/lua-script';
import { decodeMinute, isMinuteField, TRADE_MINUTES_LUA } from '../../src/store/trade-minutes';
import { startRedisServer, TestRedisServer } from '../support/redis-server';

/**
 * A rolling upgrade of the trade layout: replicas of an earlier version, storing trades as one
 * sorted set per instrument or as one hash of minutes, beside replicas that keep the open minute
 * apart, on one Redis. The lease hands an instrument from an old writer to a new one and back;
 * whoever writes last, a new reader (and a reader's copy brought up to date from tails, as the API
 * keeps it) holds every trade once.
 */
const BTC = 'btc_usdt';
const T0 = 1_764_000_000_000;

let server: TestRedisServer;
let admin: Redis;
let store: RedisStateStore;
let prefix: string;

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis(server.url);
});

afterAll(async () => {
  admin.disconnect();
  await server.stop();
});

beforeEach(async () => {
  prefix = `upgrade-${randomUUID().slice(0, 8)}`;
  store = RedisStateStore.fromUrl(server.url, { prefix });
  await store.ready();
});

afterEach(async () => {
  await store.close();
});

interface OldWriteOptions {
  replace: boolean;
  trades: readonly Trade[];
  before?: number;
  revision: number;
}

/** What a replica of the sorted-set layout wrote for the trades of one write (its script, trades part). */
async function sortedSetWrite(options: OldWriteOptions): Promise<void> {
  const keys = store.keys.instrument(BTC);
  const multi = admin.multi();
  if (options.replace) multi.del(keys.bids, keys.asks, keys.trades);
  for (const added of options.trades) multi.zadd(keys.trades, added.time, encodeTradeMember(added));
  if (options.before !== undefined) multi.zremrangebyscore(keys.trades, '-inf', options.before);
  await withHead(multi, options.revision).exec();
}

/** What a replica of the minutes layout wrote: its replace knew no later layout's keys. */
const MINUTES_WRITE = new LuaScript(`
${TRADE_MINUTES_LUA}
if ARGV[1] == '1' then redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4]) end
addTrades(KEYS[4], ARGV[2])
if ARGV[3] ~= '' then trimMinutes(KEYS[4], tonumber(ARGV[3])) end
`);

async function minutesWrite(options: OldWriteOptions): Promise<void> {
  const keys = store.keys.instrument(BTC);
  const list = options.trades.map((added) => `${added.time} ${encodeTradeMember(added)}`).join(' ');
  await MINUTES_WRITE.runAll(admin, [
    {
      keys: [keys.bids, keys.asks, keys.trades, keys.tradeMinutes],
      args: [options.replace ? '1' : '0', list, options.before === undefined ? '' : String(options.before)],
      group: BTC,
    },
  ]);
  await withHead(admin.multi(), options.revision).exec();
}

function withHead(multi: ChainableCommander, revision: number): ChainableCommander {
  const written = head(BTC, revision, { tradesRevision: revision });
  return multi
    .set(store.keys.instrument(BTC).head, JSON.stringify(written))
    .publish(store.keys.changes, JSON.stringify(instrumentNotice(written)));
}

/** What a reader of the sorted-set layout sees: the sorted set alone. */
async function sortedSetRead(): Promise<Trade[]> {
  const flat = await admin.zrange(store.keys.instrument(BTC).trades, '0', '-1', 'WITHSCORES');
  const read: Trade[] = [];
  for (let index = 0; index < flat.length; index += 2)
    read.push(decodeTradeMember(flat[index], BTC, Number(flat[index + 1])));
  return read.sort(compareTradesOldestFirst);
}

/** What a reader of the minutes layout sees: the hash of minutes alone. */
async function minutesRead(): Promise<Trade[]> {
  const hash = await admin.hgetall(store.keys.instrument(BTC).tradeMinutes);
  const read: Trade[] = [];
  for (const [field, text] of Object.entries(hash))
    if (isMinuteField(field)) decodeMinute(text, Number(field), BTC, read);
  return read.sort(compareTradesOldestFirst);
}

/** The earlier layouts, each with its writer, its reader and the key it keeps the trades in. */
const EARLIER_LAYOUTS = [
  {
    layout: 'sorted-set',
    oldWrite: sortedSetWrite,
    oldRead: sortedSetRead,
    oldKey: (keys: InstrumentKeys) => keys.trades,
  },
  {
    layout: 'minutes',
    oldWrite: minutesWrite,
    oldRead: minutesRead,
    oldKey: (keys: InstrumentKeys) => keys.tradeMinutes,
  },
] as const;

/** Whether any key of the open-minute layout is left. */
async function openMinuteKeys(): Promise<number> {
  const keys = store.keys.instrument(BTC);
  return admin.exists(keys.tradeHistory, keys.tradeOpenMinute);
}

async function newWrite(options: {
  replace: boolean;
  trades: readonly Trade[];
  before?: number;
  revision: number;
}): Promise<void> {
  const [outcome] = await store.write([
    {
      instrument: BTC,
      replace: options.replace,
      head: head(BTC, options.revision, { tradesRevision: options.revision }),
      tradesAdded: options.trades,
      ...(options.before === undefined ? {} : { tradesBefore: options.before }),
    },
  ]);
  expect(outcome.result).toBe('written');
}

/** Trades `from` to `to` (ids), one every 1.5 s from `start`, so that minutes hold several and some span two. */
function trades(from: number, to: number, start = T0): Trade[] {
  const list: Trade[] = [];
  for (let id = from; id <= to; id++)
    list.push(trade(String(id), start + id * 1500, { side: id % 2 ? 'sell' : 'buy', amount: `0.${id}` }));
  return list;
}

const MARKET: MarketInfo = {
  instrument: BTC,
  baseAsset: 'btc',
  quoteAsset: 'usdt',
  priceScale: 2,
  amountScale: 6,
  minAmount: '0.000001',
  priceDeviation: '0.1',
  makerFee: '0.001',
  takerFee: '0.002',
  hidden: false,
  status: 'Open',
  side: 'both',
  isCustom: false,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

/** The `/trades` and CoinGecko historical-trades bodies an API replica renders over `views`. */
async function bodies(
  listing: ListingService,
): Promise<{ version: string; trades: string; coingecko: string }> {
  const window = await listing.trades(MARKET, Date.now());
  const { buy, sell } = selectHistoricalTrades(window.trades(), readHistoricalTradesQuery({}));
  return {
    version: window.version,
    trades: JSON.stringify(window.trades().map(tradeRecord)),
    coingecko: toJson({ buy: buy.map(coingeckoTradeRecord), sell: sell.map(coingeckoTradeRecord) }),
  };
}

function ids(list: readonly Trade[]): string[] {
  return list.map((stored) => stored.id);
}

describe.each(EARLIER_LAYOUTS)(
  'the trade layout across a rolling upgrade from the $layout layout',
  ({ layout, oldWrite, oldKey, oldRead }) => {
    it('reads, migrates and trims whichever layout the last writer left, no trade lost or doubled', async () => {
      const keys = store.keys.instrument(BTC);
      // An old writer holds the instrument: a replace, then trades added.
      await oldWrite({ replace: true, trades: trades(1, 100), revision: 1 });
      await oldWrite({ replace: false, trades: trades(101, 120), revision: 2 });
      expect(await store.readTrades(BTC)).toEqual(trades(1, 120));
      const copy = TradeColumns.of(await store.readTrades(BTC));
      const newestTime = (): number => copy.timeAt(copy.length - 1);

      // The lease passes to a new writer, whose first write repeats trades the old one stored.
      await newWrite({ replace: false, trades: trades(115, 140), revision: 3 });
      expect(await admin.exists(oldKey(keys))).toBe(0);
      expect(await store.readTrades(BTC)).toEqual(trades(1, 140));
      expect(appendTail(copy, await store.readTradesFrom(BTC, newestTime()))).toBe(true);
      expect(copy.toArray()).toEqual(trades(1, 140));

      // The window moves on: trades at or before the cut-off go, in a minute's middle too.
      const cut = trades(30, 30)[0].time;
      await newWrite({ replace: false, trades: trades(141, 150), before: cut, revision: 4 });
      expect(await store.readTrades(BTC)).toEqual(trades(31, 150));
      expect(appendTail(copy, await store.readTradesFrom(BTC, newestTime()))).toBe(true);
      expect(copy.toArray()).toEqual(trades(31, 150));

      // An old replica takes the lease back: it replaces everything in its own layout, which wins.
      await oldWrite({ replace: true, trades: trades(40, 160), revision: 5 });
      expect(await store.readTrades(BTC)).toEqual(trades(40, 160));
      const tail = await store.readTradesFrom(BTC, trades(155, 155)[0].time);
      expect(tail).toEqual({ trades: trades(155, 160), count: 121, oldest: trades(40, 40)[0] });
      expect(appendTail(copy, await store.readTradesFrom(BTC, newestTime()))).toBe(true);
      expect(copy.toArray()).toEqual(trades(40, 160));

      // The scheduled trim reaches both layouts; then a new writer takes over again.
      await expect(store.trimTrades([BTC], trades(50, 50)[0].time)).resolves.toBe(11);
      await newWrite({ replace: false, trades: trades(158, 170), revision: 6 });
      const stored = await store.readTrades(BTC);
      expect(stored).toEqual(trades(51, 170));
      expect(new Set(ids(stored)).size).toBe(stored.length);
      expect(await store.readTradesFrom(BTC, 0)).toEqual({ trades: stored, count: 120, oldest: stored[0] });
    });

    it(`keeps the ${layout} layout that older readers read while REDIS_TRADE_LAYOUT is ${layout}`, async () => {
      const keys = store.keys.instrument(BTC);
      const compatible = RedisStateStore.fromUrl(server.url, { prefix, tradeLayout: layout });
      await compatible.ready();
      const compatibleWrite = async (replace: boolean, added: Trade[], revision: number, before?: number) => {
        const [outcome] = await compatible.write([
          {
            instrument: BTC,
            replace,
            head: head(BTC, revision, { tradesRevision: revision }),
            tradesAdded: added,
            ...(before === undefined ? {} : { tradesBefore: before }),
          },
        ]);
        expect(outcome.result).toBe('written');
      };
      try {
        // An old writer hands the instrument to a new one in the compatible layout, and back.
        await oldWrite({ replace: true, trades: trades(1, 100), revision: 1 });
        await compatibleWrite(false, trades(95, 120), 2, trades(10, 10)[0].time);
        expect(await oldRead()).toEqual(trades(11, 120));
        expect(await store.readTrades(BTC)).toEqual(trades(11, 120));
        await oldWrite({ replace: false, trades: trades(121, 125), revision: 3 });
        await compatibleWrite(true, trades(20, 130), 4);
        expect(await oldRead()).toEqual(trades(20, 130));
        expect(await openMinuteKeys()).toBe(0);

        // The second step of the upgrade: the first write in the minutes moves the sorted set over.
        await newWrite({ replace: false, trades: trades(131, 135), revision: 5 });
        expect(await admin.exists(oldKey(keys))).toBe(0);
        expect(await store.readTrades(BTC)).toEqual(trades(20, 135));
      } finally {
        await compatible.close();
      }
    });

    it('keeps trades of one time in numeric id order and reads the tail of a sparse day', async () => {
      const sparse = [
        trade('10', T0),
        trade('9', T0),
        trade('100', T0 + 3 * 3_600_000),
        trade('101', T0 + 23 * 3_600_000),
      ];
      await oldWrite({ replace: true, trades: sparse, revision: 1 });
      await newWrite({ replace: false, trades: [], revision: 2 });
      expect(await store.readTrades(BTC)).toEqual([...sparse].sort(compareTradesOldestFirst));
      expect(await store.readTradesFrom(BTC, T0 + 1)).toEqual({
        trades: sparse.slice(2),
        count: 4,
        oldest: sparse[1],
      });
      await newWrite({ replace: false, trades: [], before: T0 + 23 * 3_600_000, revision: 3 });
      expect(await store.readTrades(BTC)).toEqual([]);
      expect(await openMinuteKeys()).toBe(0);
    });

    it('serves the same /trades and CoinGecko historical-trades bodies from either layout', async () => {
      const start = Date.now() - 3_600_000;
      await store.writeCatalog({ markets: [MARKET], assets: [], refreshedAt: start });
      const views = new MarketViews(store);
      await views.onApplicationBootstrap();
      try {
        const listing = new ListingService(views);
        const served = async (
          revision: number,
          count: number,
        ): Promise<{ trades: string; coingecko: string }> => {
          let body = await bodies(listing);
          await eventually(async () => {
            body = await bodies(listing);
            expect(body.version).toMatch(new RegExp(`^${revision}:${count}:`));
          });
          return { trades: body.trades, coingecko: body.coingecko };
        };

        await oldWrite({ replace: true, trades: trades(1, 100, start), revision: 1 });
        const old = await served(1, 100);
        expect(JSON.parse(old.trades)).toHaveLength(100);

        // A new writer takes over and moves the sorted set: the same bytes.
        await newWrite({ replace: false, trades: [], revision: 2 });
        expect(await served(2, 100)).toEqual(old);

        // It adds trades, then an old writer takes the instrument back with the same window.
        await newWrite({ replace: false, trades: trades(95, 110, start), revision: 3 });
        const added = await served(3, 110);
        await oldWrite({ replace: true, trades: trades(1, 110, start), revision: 4 });
        expect(await served(4, 110)).toEqual(added);

        // A replica that reads everything afresh serves the same.
        const fresh = new MarketViews(store);
        await fresh.onApplicationBootstrap();
        try {
          const body = await bodies(new ListingService(fresh));
          expect({ trades: body.trades, coingecko: body.coingecko }).toEqual(added);
        } finally {
          await fresh.onApplicationShutdown();
        }
      } finally {
        await views.onApplicationShutdown();
      }
    });
  },
);
