import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createRedisClient } from '../../src/store/redis-connection';
import { RedisRequestBudget } from '../../src/upstream/rest/redis-request-budget';
import { startRedisServer } from '../support/redis-server';
import { hammer, mostInOneWindow, occupiedMs } from '../upstream/redis-request-budget-spans';
import { describeMachine } from './machine';

/**
 * How close the shared REST budget keeps three replicas to the limit: each replica's workers take a
 * permit, hold it for a random request of up to 60 ms and release it, against a private
 * redis-server, with a window short enough that a few seconds hold many handovers. The figure is the
 * share of the limit's capacity that permits kept taken (each from its grant to one hold after its
 * release); the rest was lost handing permits over. Fails under 0.85, or if a window ever counted
 * more than the limit.
 *
 *   node -r ./test/bench/swc-register.js test/bench/request-budget-bench.ts [--seconds 4] [--rounds 3] [--full]
 */

const WINDOW_MS = 300;
const MARGIN_MS = 10;
const HOLD_MS = WINDOW_MS + MARGIN_MS;
const LIMIT = 3;
const REPLICAS = 3;
const MIN_SHARE = 0.85;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '4' },
      rounds: { type: 'string', default: '3' },
      full: { type: 'boolean', default: false },
    },
    strict: false,
  });
  const durationMs = Number(values.seconds) * 1000;
  const rounds = values.full ? 10 : Number(values.rounds);
  const loadAtStart = loadavg()[0];
  const redis = await startRedisServer();
  const shares: number[] = [];
  let worstWindow = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      const clients = Array.from({ length: REPLICAS }, () =>
        createRedisClient({ REDIS_URL: redis.url, REDIS_CLUSTER: false }),
      );
      const budgets = clients.map(
        (client) =>
          new RedisRequestBudget(client, {
            prefix: `bench-${round}`,
            windowMs: WINDOW_MS,
            marginMs: MARGIN_MS,
            limits: { marketdata: LIMIT },
          }),
      );
      try {
        await Promise.all(budgets.map((budget) => budget.connected(5000)));
        const spans = await hammer(budgets, 'marketdata', { workers: 3, durationMs, maxHoldMs: 60 });
        shares.push(occupiedMs(spans, HOLD_MS) / (LIMIT * durationMs));
        worstWindow = Math.max(worstWindow, mostInOneWindow(spans, WINDOW_MS));
      } finally {
        await Promise.all(budgets.map((budget) => budget.close()));
        for (const client of clients) client.disconnect();
      }
    }
  } finally {
    await redis.stop();
  }

  const sorted = [...shares].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  process.stdout.write(
    [
      `${describeMachine()}; load ${loadAtStart.toFixed(2)} at start`,
      '',
      '| replicas | limit | window | rounds | capacity kept taken, median (lowest–highest) | most in one window |',
      '| --- | --- | --- | --- | --- | --- |',
      `| ${REPLICAS} | ${LIMIT} | ${WINDOW_MS} + ${MARGIN_MS} ms | ${rounds} × ${durationMs / 1000} s | ` +
        `**${median.toFixed(2)}** (${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}) | ${worstWindow} |`,
      '',
    ].join('\n'),
  );
  if (worstWindow > LIMIT)
    throw new Error(`a window counted ${worstWindow} requests, over the limit of ${LIMIT}`);
  if (median < MIN_SHARE)
    throw new Error(`the budget kept ${median.toFixed(2)} of the limit taken, under ${MIN_SHARE}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
