import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { PriceLevel } from '../../src/market/book-update';
import { Trade } from '../../src/market/trade';
import { TradeWindow } from '../../src/market/trade-window';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { freePort, MainProcess, positive, progress } from './bench-process';
import { median } from './book-timing';
import { describeMachine } from './machine';
import { instrumentName, marketCatalog, marketHead } from './memory-fixture';
import { rawGet } from './raw-http';
import { startRedisServer } from '../support/redis-server';

/**
 * What compressing a new body costs the API replica, at the settings it uses and at others, on the
 * bodies it serves: a full book, a market's trades, the CoinGecko tickers and the summary of 200
 * markets, read from an API replica (`dist/main.js`, role api) over a private Redis holding markets of
 * random-walk prices and amounts of up to 8 decimals (a fixed seed). Most listing bodies change with
 * every write, and each version is compressed once per encoding asked for, on the event loop that
 * serves every request. Each setting compresses each body `--rounds` times after a warm-up; the
 * figure is the median time per body, and the ratio is against the settings used before (gzip 6,
 * brotli 5) in the same run.
 *
 *   node -r ./test/bench/swc-register.js test/bench/compression-bench.ts          1,000 levels, 20,000 trades
 *   node -r ./test/bench/swc-register.js test/bench/compression-bench.ts --full   5,000 levels, a day of trades
 */

interface Setting {
  readonly name: string;
  readonly compress: (body: Buffer) => Buffer;
}

const gzip = (level: number): Setting => ({
  name: `gzip ${level}`,
  compress: (body) => gzipSync(body, { level }),
});
const brotli = (quality: number): Setting => ({
  name: `brotli ${quality}`,
  compress: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }),
});

/** The settings the API uses (src/api/http/cached-body.ts) against those it used before. */
const PAIRS: readonly (readonly [now: Setting, before: Setting])[] = [
  [gzip(3), gzip(6)],
  [brotli(4), brotli(5)],
];
const OTHERS: readonly Setting[] = [gzip(1)];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      rounds: { type: 'string', default: '30' },
    },
  });
  const depth = values.full ? 5_000 : 1_000;
  const trades = values.full ? 86_400 : 20_000;
  const rounds = positive(values.rounds, 'rounds');
  const started = new Date();
  const loadAtStart = loadavg()[0];
  const bodies = await servedBodies(depth, trades);
  const settings = [...PAIRS.flat(), ...OTHERS];
  const lines = [
    `Run ${started.toISOString()}`,
    `Machine: ${describeMachine()}`,
    `Command: node -r ./test/bench/swc-register.js test/bench/compression-bench.ts ${process.argv.slice(2).join(' ')}`.trim(),
    `Load average (1 min) at start and end: ${loadAtStart.toFixed(2)}, ${loadavg()[0].toFixed(2)}`,
    `Bodies from an API replica: 200 markets, the first of ${depth.toLocaleString('en-US')} levels a side and ${trades.toLocaleString('en-US')} trades; ${rounds} rounds per setting, median`,
    '',
    `| body | plain bytes | ${settings.map((setting) => setting.name).join(' | ')} | ${PAIRS.map(([now, before]) => `**${now.name} / ${before.name}**, time; bytes`).join(' | ')} |`,
    `| --- | ---: | ${settings.map(() => '---:').join(' | ')} | ${PAIRS.map(() => '---:').join(' | ')} |`,
  ];
  for (const [path, body] of bodies) {
    progress(`compressing ${path}`);
    const measured = new Map(settings.map((setting) => [setting, timeCompression(setting, body, rounds)]));
    const cell = (setting: Setting): string => {
      const { ms, bytes } = measured.get(setting)!;
      return `${ms.toFixed(2)} ms, ${bytes.toLocaleString('en-US')} B`;
    };
    const ratio = ([now, before]: readonly [Setting, Setting]): string => {
      const a = measured.get(now)!;
      const b = measured.get(before)!;
      return `**${(a.ms / b.ms).toFixed(2)}**; ${(a.bytes / b.bytes).toFixed(2)}`;
    };
    lines.push(
      `| \`${path}\` | ${body.length.toLocaleString('en-US')} | ${settings.map(cell).join(' | ')} | ${PAIRS.map(ratio).join(' | ')} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Median time of one compression of `body`, after a warm-up, and the compressed size. */
function timeCompression(setting: Setting, body: Buffer, rounds: number): { ms: number; bytes: number } {
  let bytes = 0;
  for (let i = 0; i < 3; i++) bytes = setting.compress(body).length;
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    setting.compress(body);
    times.push(performance.now() - start);
  }
  return { ms: median(times), bytes };
}

/** The plain bodies an API replica serves over a Redis holding the fixture's markets. */
async function servedBodies(depth: number, trades: number): Promise<Map<string, Buffer>> {
  const redis = await startRedisServer({ args: [] });
  let api: MainProcess | undefined;
  try {
    progress('writing the markets to Redis');
    await fillStore(redis.url, depth, trades);
    const port = await freePort();
    api = MainProcess.spawn('api', {
      env: {
        ROLE: 'api',
        REDIS_URL: redis.url,
        HOST: '127.0.0.1',
        PORT: String(port),
        RATE_LIMIT_PER_MINUTE: '0',
      },
    });
    const url = `http://127.0.0.1:${port}`;
    await api.waitFor(`${url}/health/ready`, 60_000);
    const market = instrumentName(0);
    const paths = [`/orderbook/${market}`, `/trades/${market}`, '/coingecko/tickers', '/summary'];
    const bodies = new Map<string, Buffer>();
    for (const path of paths) {
      const response = await rawGet(`${url}${path}`);
      if (response.status !== 200 || response.headers['content-encoding'] !== undefined)
        throw new Error(
          `${path}: status ${response.status}, ${response.headers['content-encoding'] ?? 'plain'}`,
        );
      bodies.set(path, response.body);
    }
    return bodies;
  } finally {
    await api?.stop();
    await redis.stop();
  }
}

/** 200 markets: the first `depth` levels a side and `trades` trades, the others 20 and 10. */
async function fillStore(url: string, depth: number, trades: number): Promise<void> {
  const markets = 200;
  const store = RedisStateStore.fromUrl(url);
  await store.ready();
  try {
    const now = Date.now();
    await store.writeCatalog(marketCatalog(markets, now));
    const generator = xoroshiro128plus(24);
    const random = (): number => uniformFloat64(generator);
    for (let index = 0; index < markets; index++) {
      const market = randomMarket(
        instrumentName(index),
        index === 0 ? depth : 20,
        index === 0 ? trades : 10,
        now,
        random,
      );
      const window = new TradeWindow();
      window.add(market.trades, now);
      const head = { ...marketHead(market, now), stats: window.stats(now) };
      await store.write([
        { instrument: market.instrument, replace: true, head, levels: market, tradesAdded: market.trades },
      ]);
    }
  } finally {
    await store.close();
  }
}

interface RandomMarket {
  readonly instrument: string;
  readonly bids: PriceLevel[];
  readonly asks: PriceLevel[];
  readonly trades: Trade[];
}

/** Prices of 2 decimals a few ticks apart around a random mid, amounts of up to 8 decimals, a walk of trades. */
function randomMarket(
  instrument: string,
  depth: number,
  tradeCount: number,
  now: number,
  random: () => number,
): RandomMarket {
  const mid = 100_00 + Math.floor(random() * 5_000_000_00);
  const amount = (): string => (random() * 10 ** Math.floor(random() * 4)).toFixed(8).replace(/\.?0+$/, '');
  const price = (cents: number): string => (cents / 100).toFixed(2);
  const side = (direction: 1 | -1): PriceLevel[] => {
    const levels: PriceLevel[] = [];
    let cents = mid;
    for (let i = 0; i < depth; i++) {
      cents += direction * (1 + Math.floor(random() * 4));
      levels.push([price(cents), amount()]);
    }
    return levels;
  };
  const trades: Trade[] = [];
  let cents = mid;
  for (let i = 0; i < tradeCount; i++) {
    cents = Math.max(1, cents + Math.round((random() - 0.5) * 6));
    trades.push({
      id: String(10_000_000_000 + i),
      instrument,
      price: price(cents),
      amount: amount(),
      side: random() < 0.5 ? 'buy' : 'sell',
      time: now - Math.round(((tradeCount - i) * 86_000_000) / tradeCount),
    });
  }
  return { instrument, bids: side(-1), asks: side(1), trades };
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
