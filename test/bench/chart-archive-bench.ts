import Redis from 'ioredis';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Candle } from '../../src/market/candle-stats';
import { HourBlock } from '../../src/store/bar-archive';
import { RedisBarArchive } from '../../src/store/redis-bar-archive';
import { startRedisServer } from '../support/redis-server';
import { freePort, gatewayEnv, MainProcess, startSandboxProcess } from './bench-process';
import { describeMachine } from './machine';
import { rawGet } from './raw-http';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const INSTRUMENT = 'btc_usdt';

/**
 * The bar archive's cost for one market trading every minute for a year: Redis memory per
 * market-day (MEMORY USAGE of each day's hash) and the stored bytes per bar, then a year of 1-minute
 * blocks read and decoded against the floor of the same hashes read raw (HGETALL, no decoding), and
 * the same year served by a gateway process on that Redis through `/tradingview/history`.
 *
 *   node -r ./test/bench/swc-register.js test/bench/chart-archive-bench.ts     about 60 s
 *
 * Needs `npm run build` first (the gateway runs dist/main.js).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { days: { type: 'string', default: '365' }, rounds: { type: 'string', default: '5' } },
  });
  const days = Number(values.days);
  const rounds = Number(values.rounds);
  const loadAtStart = loadavg()[0];
  const redis = await startRedisServer({ args: [] });
  const client = new Redis(redis.url);
  const archive = new RedisBarArchive(client, { retentionMs: 2 * days * DAY_MS });
  try {
    // Whole days that end before the trade window, so that the archive alone answers for them.
    const first = Date.now() - (Date.now() % DAY_MS) - (days + 1) * DAY_MS;
    let price = 6_500_000n;
    let bars = 0;
    for (let day = 0; day < days; day++) {
      const blocks: HourBlock[] = [];
      for (let hour = 0; hour < 24; hour++) {
        const hourStart = first + day * DAY_MS + hour * HOUR_MS;
        const hourBars: Candle[] = [];
        for (let minute = 0; minute < 60; minute++) {
          const start = hourStart + minute * MINUTE_MS;
          const open = price;
          price += BigInt(Math.round((Math.random() - 0.5) * 400));
          const high = (open > price ? open : price) + BigInt(Math.round(Math.random() * 200));
          const low = (open < price ? open : price) - BigInt(Math.round(Math.random() * 200));
          hourBars.push({
            start,
            end: start + MINUTE_MS,
            open: cents(open),
            high: cents(high),
            low: cents(low),
            close: cents(price),
            volume: (Math.random() * 5).toFixed(6),
          });
        }
        bars += hourBars.length;
        blocks.push({ hourStart, source: 'exchange', bars: hourBars });
      }
      await archive.writeHours(INSTRUMENT, blocks);
    }

    const dayKeys = Array.from({ length: days }, (_, day) =>
      archive.keys.bars(INSTRUMENT).day(first + day * DAY_MS),
    );
    let memory = 0;
    let stored = 0;
    for (const key of dayKeys) {
      memory += Number(await client.memory('USAGE', key, 'SAMPLES', '0'));
      for (const text of Object.values(await client.hgetall(key))) stored += text.length;
    }

    const end = first + days * DAY_MS;
    const decoded: number[] = [];
    const raw: number[] = [];
    for (let round = 0; round < rounds; round++) {
      let at = process.hrtime.bigint();
      const blocks = await archive.readHours(INSTRUMENT, first, end);
      decoded.push(Number(process.hrtime.bigint() - at) / 1e6);
      if (blocks.reduce((sum, block) => sum + block.bars.length, 0) !== bars) throw new Error('bars lost');
      at = process.hrtime.bigint();
      const pipeline = client.pipeline();
      for (const key of dayKeys) pipeline.hgetall(key);
      await pipeline.exec();
      raw.push(Number(process.hrtime.bigint() - at) / 1e6);
    }

    const served = await servedYear(redis.url, first, end, bars, rounds, days);

    print(`## Chart bar archive\n\n${describeMachine()}; load average ${loadAtStart.toFixed(2)} at start\n`);
    print('| Figure | Value |\n|---|---|');
    print(`| 1-minute bars, one market | ${bars.toLocaleString('en')} over ${days} days |`);
    print(`| stored bytes a bar (encoded blocks) | ${(stored / bars).toFixed(1)} |`);
    print(`| Redis memory a market-day (MEMORY USAGE) | ${(memory / days / 1024).toFixed(1)} KiB |`);
    print(`| Redis memory a market-year | ${(((memory / days) * 365) / 2 ** 20).toFixed(2)} MiB |`);
    print(`| the year read and decoded (median of ${rounds}) | ${median(decoded).toFixed(0)} ms |`);
    print(`| the same hashes read raw (floor) | ${median(raw).toFixed(0)} ms |`);
    print(`| decoded against raw | ${(median(decoded) / median(raw)).toFixed(2)}× |`);
    print(`| the year by /tradingview/history, first request | ${served.firstMs.toFixed(0)} ms |`);
    print(`| the same, median of ${rounds} more | ${median(served.repeatMs).toFixed(0)} ms |`);
    print(
      `| its body | ${(served.bytes / 2 ** 20).toFixed(1)} MiB, ${(served.bytes / bars).toFixed(1)} B a bar |`,
    );
    print(`| its body gzip-encoded | ${(served.gzipBytes / 2 ** 20).toFixed(1)} MiB |`);
  } finally {
    client.disconnect();
    await redis.stop();
  }
}

interface ServedYear {
  readonly firstMs: number;
  readonly repeatMs: number[];
  readonly bytes: number;
  readonly gzipBytes: number;
}

/**
 * A gateway (role `all`) on the archive's Redis, ingesting a sandbox, asked for every 1-minute bar
 * from `first` to `end` as TradingView asks. The backfill is told the archive is complete, so that it
 * leaves the year as written.
 */
async function servedYear(
  redisUrl: string,
  first: number,
  end: number,
  bars: number,
  rounds: number,
  days: number,
): Promise<ServedYear> {
  const client = new Redis(redisUrl);
  const archive = new RedisBarArchive(client, { retentionMs: 2 * days * DAY_MS });
  const edge = Date.now() - DAY_MS - ((Date.now() - DAY_MS) % HOUR_MS) + HOUR_MS;
  await archive.writeBackfill(INSTRUMENT, { coveredFrom: first - 30 * DAY_MS, coveredTo: edge });
  client.disconnect();
  const sandbox = await startSandboxProcess({ SANDBOX_FLOW_RATE: '0' });
  const port = await freePort();
  const gateway = MainProcess.spawn('gateway', {
    env: {
      ROLE: 'all',
      REDIS_URL: redisUrl,
      CHART_HISTORY_DAYS: String(days + 30),
      ...gatewayEnv(sandbox.url, port),
    },
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await gateway.waitFor(`${url}/health/ready`, 120_000);
    const path = `${url}/tradingview/history?symbol=BTCUSDT&resolution=1&from=${first / 1000}&to=${end / 1000 - 1}`;
    const timed = async (encoding = 'identity') => {
      const at = process.hrtime.bigint();
      const response = await rawGet(path, { 'accept-encoding': encoding });
      return { ms: Number(process.hrtime.bigint() - at) / 1e6, body: response.body };
    };
    const firstRead = await timed();
    const answer = JSON.parse(firstRead.body.toString()) as { s: string; t?: number[] };
    if (answer.s !== 'ok' || answer.t?.length !== bars)
      throw new Error(`history: ${answer.s} with ${answer.t?.length ?? 0} bars, not ${bars}`);
    const repeatMs: number[] = [];
    for (let round = 0; round < rounds; round++) repeatMs.push((await timed()).ms);
    const gzip = await timed('gzip');
    return { firstMs: firstRead.ms, repeatMs, bytes: firstRead.body.length, gzipBytes: gzip.body.length };
  } finally {
    await gateway.stop();
    await sandbox.process.stop();
  }
}

function cents(value: bigint): string {
  const text = value.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}
