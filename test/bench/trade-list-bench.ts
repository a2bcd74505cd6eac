import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { TradeColumns } from '../../src/market/trade-columns';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { head, trade } from '../../src/store/testing/state-store-contract';
import { appendTail } from '../../src/store/trade-tail';
import { startRedisServer } from '../support/redis-server';
import { percentile } from './bench-process';
import { describeMachine } from './machine';

/**
 * What it costs the API to bring one market's 24-hour trade list up to date after a new trade, with
 * a day of trades at one a second stored in a private redis-server: the whole list read again (as
 * the API did), against the trades since the newest it holds read and appended (`readTradesFrom`
 * and `appendTail`), each into the columns the API holds. The two take turns after each new trade; both must give the stored list.
 *
 *   npm run bench -- --only trade-list
 *   npm run bench -- --only trade-list --full        more rounds
 */

const INSTRUMENT = 'btc_usdt';
const DAY_OF_TRADES = 86_400;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { full: { type: 'boolean', default: false } } });
  const rounds = values.full ? 41 : 11;
  const loadAtStart = loadavg()[0];
  const redis = await startRedisServer({ args: [] });
  const store = RedisStateStore.fromUrl(redis.url);
  await store.ready();
  try {
    const start = Date.now() - DAY_OF_TRADES * 1000;
    const day = Array.from({ length: DAY_OF_TRADES }, (_, i) => trade(String(i + 1), start + i * 1000));
    for (let from = 0; from < day.length; from += 10_000) {
      await store.write([
        {
          instrument: INSTRUMENT,
          replace: from === 0,
          head: head(INSTRUMENT, 1),
          tradesAdded: day.slice(from, from + 10_000),
        },
      ]);
    }
    let held = TradeColumns.of(await store.readTrades(INSTRUMENT));
    let nextId = DAY_OF_TRADES + 1;
    const fullMs: number[] = [];
    const tailMs: number[] = [];
    for (let round = 0; round < 2 * rounds; round++) {
      await store.write([
        {
          instrument: INSTRUMENT,
          replace: false,
          head: head(INSTRUMENT, 1),
          tradesAdded: [trade(String(nextId), start + (nextId - 1) * 1000)],
        },
      ]);
      nextId++;
      const tail = round % 2 === 1;
      const heldBefore = held.length;
      const started = performance.now();
      const updated = tail
        ? appendTail(held, await store.readTradesFrom(INSTRUMENT, held.timeAt(held.length - 1)))
        : (held = TradeColumns.of(await store.readTrades(INSTRUMENT)));
      const ms = performance.now() - started;
      if (!updated || held.length !== heldBefore + 1)
        throw new Error(`round ${round}: the list was not brought up to date`);
      // The first pair warms up.
      if (round >= 2) (tail ? tailMs : fullMs).push(ms);
    }
    const stored = await store.readTrades(INSTRUMENT);
    if (JSON.stringify(stored) !== JSON.stringify(held.toArray()))
      throw new Error('the list held differs from the store');
    const median = (values: number[]): string => percentile(values, 50).toFixed(2);
    const lines = [
      '## A trade list brought up to date after a new trade',
      '',
      `${new Date().toISOString()}, ${describeMachine()}, load average ${loadAtStart.toFixed(2)} at the start, ` +
        `${loadavg()[0].toFixed(2)} at the end.`,
      `${DAY_OF_TRADES.toLocaleString('en')} trades stored, one added before each read; ${rounds - 1} reads each way ` +
        'after a warm-up, taking turns; medians of the wall time of the read and its decoding.',
      '',
      '| way | ms per update | **against the whole list** |',
      '| --- | ---: | ---: |',
      `| the whole list read again | ${median(fullMs)} | **1.00** |`,
      `| the trades since the newest held | ${median(tailMs)} | ` +
        `**${(percentile(tailMs, 50) / percentile(fullMs, 50)).toPrecision(2)}** |`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await store.close();
    await redis.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
