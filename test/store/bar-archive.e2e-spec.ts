import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { Candle } from '../../src/market/candle-stats';
import { BarArchive, HourBlock } from '../../src/store/bar-archive';
import { DAY_MS, HOUR_MS } from '../../src/store/bar-archive-days';
import { StoreKeys } from '../../src/store/keys';
import { MemoryBarArchive } from '../../src/store/memory-bar-archive';
import { RedisBarArchive } from '../../src/store/redis-bar-archive';
import { startRedisServer, TestRedisServer } from '../support/redis-server';

const MINUTE_MS = 60_000;
const RETENTION_DAYS = 30;
const RETENTION_MS = RETENTION_DAYS * DAY_MS;
/** Midnight of today, UTC: the tests' hours lie on the days before it, inside the retention. */
const TODAY = Date.now() - (Date.now() % DAY_MS);
const DAY = TODAY - 2 * DAY_MS;

function bar(hourStart: number, minute: number, close: string, volume = '1'): Candle {
  const start = hourStart + minute * MINUTE_MS;
  return { start, end: start + MINUTE_MS, open: close, high: close, low: close, close, volume };
}

function block(hour: number, source: HourBlock['source'], close = '1', day = DAY): HourBlock {
  const hourStart = day + hour * HOUR_MS;
  return { hourStart, source, bars: [bar(hourStart, 0, close), bar(hourStart, 59, close, '0.5')] };
}

let server: TestRedisServer;
let admin: Redis;
const clients: Redis[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis(server.url);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit()));
  await admin.quit();
  await server.stop();
});

interface ArchiveUnderTest {
  readonly archive: BarArchive;
  /** The Redis keys of the archive, or undefined for the memory one. */
  readonly keys?: StoreKeys;
}

const archives: [string, () => ArchiveUnderTest][] = [
  ['memory', () => ({ archive: new MemoryBarArchive({ retentionMs: RETENTION_MS }) })],
  [
    'Redis',
    () => {
      const client = new Redis(server.url);
      clients.push(client);
      const archive = new RedisBarArchive(client, {
        prefix: `bars-${randomUUID().slice(0, 8)}`,
        retentionMs: RETENTION_MS,
      });
      return { archive, keys: archive.keys };
    },
  ],
];

describe.each(archives)('%s bar archive', (_, open) => {
  let archive: BarArchive;
  let keys: StoreKeys | undefined;

  beforeEach(() => {
    ({ archive, keys } = open());
  });

  it('reads back the blocks written, oldest first, within [from, to)', async () => {
    const blocks = [
      block(5, 'trades'),
      block(23, 'exchange'),
      block(0, 'trades', '2', DAY + DAY_MS),
      block(3, 'exchange'),
    ];
    await archive.writeHours('btc_usdt', blocks);
    await archive.writeHours('eth_usdt', [block(4, 'trades', '9')]);

    expect(await archive.readHours('btc_usdt', DAY, DAY + 2 * DAY_MS)).toEqual([
      blocks[3],
      blocks[0],
      blocks[1],
      blocks[2],
    ]);
    expect(await archive.readHours('btc_usdt', DAY + 3 * HOUR_MS, DAY + 23 * HOUR_MS)).toEqual([
      blocks[3],
      blocks[0],
    ]);
    expect(await archive.readHours('btc_usdt', DAY + 6 * HOUR_MS, DAY + DAY_MS + HOUR_MS)).toEqual([
      blocks[1],
      blocks[2],
    ]);
    expect(await archive.readHours('btc_usdt', DAY + 6 * HOUR_MS, DAY + 6 * HOUR_MS)).toEqual([]);
    expect(await archive.readHours('eth_usdt', DAY, TODAY)).toEqual([block(4, 'trades', '9')]);
    expect(await archive.readHours('xrp_usdt', DAY, TODAY)).toEqual([]);
  });

  it('replaces exchange-built blocks with trade-built ones, never the reverse', async () => {
    await archive.writeHours('btc_usdt', [block(1, 'exchange', '1'), block(2, 'trades', '1')]);
    await archive.writeHours('btc_usdt', [block(1, 'trades', '2'), block(2, 'exchange', '2')]);
    expect(await archive.readHours('btc_usdt', DAY, TODAY)).toEqual([
      block(1, 'trades', '2'),
      block(2, 'trades', '1'),
    ]);

    // A trade-built block replaces a trade-built one (a late trade re-sealed the hour), an exchange
    // one an exchange one (a corrected candle).
    await archive.writeHours('btc_usdt', [block(1, 'trades', '3'), block(3, 'exchange', '1')]);
    await archive.writeHours('btc_usdt', [block(3, 'exchange', '4')]);
    expect(await archive.readHours('btc_usdt', DAY, TODAY)).toEqual([
      block(1, 'trades', '3'),
      block(2, 'trades', '1'),
      block(3, 'exchange', '4'),
    ]);
  });

  it('applies the rule within one write as well: the last block of an hour wins unless it would demote', async () => {
    await archive.writeHours('btc_usdt', [
      block(7, 'exchange', '1'),
      block(7, 'trades', '2'),
      block(7, 'exchange', '3'),
    ]);
    expect(await archive.readHours('btc_usdt', DAY, TODAY)).toEqual([block(7, 'trades', '2')]);
  });

  it('keeps concurrent writers to the rule', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        archive.writeHours('btc_usdt', [block(9, index === 7 ? 'trades' : 'exchange', String(index + 1))]),
      ),
    );
    expect(await archive.readHours('btc_usdt', DAY, TODAY)).toEqual([block(9, 'trades', '8')]);
  });

  it('drops a day the retention after it ends, and stores none older', async () => {
    const expired = TODAY - RETENTION_MS - DAY_MS;
    const kept = TODAY - RETENTION_MS;
    await archive.writeHours('btc_usdt', [block(23, 'trades', '1', expired), block(0, 'trades', '1', kept)]);
    expect(await archive.readHours('btc_usdt', expired, TODAY)).toEqual([block(0, 'trades', '1', kept)]);
    if (keys) {
      expect(await admin.exists(keys.bars('btc_usdt').day(expired))).toBe(0);
      const expiresAt = await admin.pexpiretime(keys.bars('btc_usdt').day(kept));
      expect(expiresAt).toBe(kept + DAY_MS + RETENTION_MS);
    }
  });

  it('refuses a block it cannot encode, storing nothing of the write', async () => {
    const broken = { ...block(2, 'trades'), hourStart: DAY + 2 * HOUR_MS + 1 };
    await expect(archive.writeHours('btc_usdt', [block(1, 'trades'), broken])).rejects.toThrow('UTC hour');
    expect(await archive.readHours('btc_usdt', DAY, TODAY)).toEqual([]);
  });

  it('merges the backfill state field by field', async () => {
    expect(await archive.readBackfill('btc_usdt')).toEqual({});
    await archive.writeBackfill('btc_usdt', { coveredFrom: DAY });
    await archive.writeBackfill('btc_usdt', { sealedThrough: DAY + 5 * HOUR_MS });
    expect(await archive.readBackfill('btc_usdt')).toEqual({
      coveredFrom: DAY,
      sealedThrough: DAY + 5 * HOUR_MS,
    });
    await archive.writeBackfill('btc_usdt', { coveredFrom: DAY - DAY_MS });
    await archive.writeBackfill('btc_usdt', {});
    expect(await archive.readBackfill('btc_usdt')).toEqual({
      coveredFrom: DAY - DAY_MS,
      sealedThrough: DAY + 5 * HOUR_MS,
    });
    expect(await archive.readBackfill('eth_usdt')).toEqual({});
  });
});

describe('Redis bar archive layout', () => {
  let archive: RedisBarArchive;

  beforeEach(() => {
    const client = new Redis(server.url);
    clients.push(client);
    archive = new RedisBarArchive(client, {
      prefix: `bars-${randomUUID().slice(0, 8)}`,
      retentionMs: RETENTION_MS,
    });
  });

  it('keeps one hash per market-day, the hour of the day as the field', async () => {
    await archive.writeHours('btc_usdt', [block(0, 'trades'), block(13, 'exchange')]);
    const fields = await admin.hgetall(archive.keys.bars('btc_usdt').day(DAY));
    expect(Object.keys(fields).sort()).toEqual(['0', '13']);
    expect(fields['13']).toMatch(/^b1 e /);
  });

  it('refuses a damaged block with an error that names the market and hour', async () => {
    await archive.writeHours('btc_usdt', [block(4, 'trades')]);
    const key = archive.keys.bars('btc_usdt').day(DAY);
    const text = await admin.hget(key, '4');
    await admin.hset(key, '4', text!.replace(/\n[^\n]*$/, '\n,1,,,,1'));
    await expect(archive.readHours('btc_usdt', DAY, TODAY)).rejects.toThrow(
      `bar archive of btc_usdt, hour ${new Date(DAY + 4 * HOUR_MS).toISOString()}: unreadable hour block: checksum mismatch`,
    );
  });

  it('refuses a block filed under another hour', async () => {
    await archive.writeHours('btc_usdt', [block(4, 'trades')]);
    const key = archive.keys.bars('btc_usdt').day(DAY);
    await admin.hset(key, '5', (await admin.hget(key, '4'))!);
    await expect(archive.readHours('btc_usdt', DAY, TODAY)).rejects.toThrow('holds the hour');
  });
});
