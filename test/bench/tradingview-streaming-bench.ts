import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ChartBar, historyBars } from '../support/chart-truth';
import { FeedReader, streamedBars, streamedTrade } from '../support/tradingview-feed';
import { readTruth, setFlow } from '../support/truth';
import type { RunningSandbox } from 'sandbox-exchange';
import type { BareFeedCommand, BareFeedReply } from './bare-feed-process';
import {
  freePort,
  gatewayEnv,
  MainProcess,
  percentile,
  positive,
  processCpuSeconds,
  progress,
  sleep,
  startSandboxProcess,
} from './bench-process';
import { untilQuiet, IDLE_CORES } from './burst-stack';
import { IpcChild } from './ipc-child';
import { describeMachine } from './machine';

/**
 * `/tradingview/streaming` to TradingView's way of reading it: `--clients` clients of four identical
 * connections each (4 × 50 by default), on a gateway process (role `all`) ingesting a sandbox process
 * whose every market trades. The phase runs twice, without readers and with them, so that the
 * streaming's own CPU is the difference; then a bare node HTTP server writes the lines the first
 * reader received, at the times it received them, to as many connections (the floor).
 *
 * - Delivery: lines per connection, every connection's lines equal to the first's (heartbeats aside).
 * - Trade delay: for each trade the first reader received, its arrival minus the trade's time at
 *   the exchange (the sandbox's truth), both on this machine's clock.
 * - Bars: each market's 1-minute bars rebuilt from the streamed trades, for the minutes streamed
 *   whole, against `/tradingview/history` once they closed.
 *
 *   node -r ./test/bench/swc-register.js test/bench/tradingview-streaming-bench.ts          about 2 min (30 s phases)
 *   ... tradingview-streaming-bench.ts --full                                            about 22 min (10-minute phases)
 *
 * Needs `npm run build` first (it runs dist/main.js).
 */

const CONNECTIONS_PER_CLIENT = 4;
/** After the flow stops: the last lines are on their way. */
const DRAIN_MS = 2_000;
const MINUTE_MS = 60_000;

interface Settings {
  readonly clients: number;
  readonly seconds: number;
  /** Synthetic orders per second per market. */
  readonly flowRate: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      clients: { type: 'string', default: '50' },
      seconds: { type: 'string' },
      rate: { type: 'string', default: '20' },
    },
  });
  const settings: Settings = {
    clients: positive(values.clients, 'clients'),
    seconds: positive(values.seconds ?? (values.full ? '600' : '30'), 'seconds'),
    flowRate: positive(values.rate, 'rate'),
  };
  const loadAtStart = loadavg()[0];
  const sandbox = await startSandboxProcess({ SANDBOX_FLOW_RATE: '0' });
  const exchange = { baseUrl: sandbox.url } as RunningSandbox;
  const port = await freePort();
  const gateway = MainProcess.spawn('gateway', { env: { ROLE: 'all', ...gatewayEnv(sandbox.url, port) } });
  const url = `http://127.0.0.1:${port}`;
  const scratch = mkdtempSync(join(tmpdir(), 'tradingview-streaming-bench-'));
  const connections: FeedReader[] = [];
  const bare = IpcChild.fork<BareFeedCommand, BareFeedReply>('bare-feed-process.ts');
  try {
    await gateway.waitFor(`${url}/health/ready`, 120_000);
    await untilQuiet(gateway, IDLE_CORES, 60_000);
    const symbols = await symbolsOf(url);

    progress(`streaming: ${settings.seconds} s of trades without readers`);
    const idle = await phase(exchange, gateway, settings);

    const count = settings.clients * CONNECTIONS_PER_CLIENT;
    progress(`streaming: ${settings.seconds} s of trades to ${count} connections`);
    for (let i = 0; i < count; i++) connections.push(new FeedReader(url));
    await until(() => connections.every((connection) => connection.response), 'every connection open');
    const read = await phase(exchange, gateway, settings);
    const first = connections[0];
    const data = (connection: FeedReader) => connection.lines.filter((line) => !line.startsWith('{"f":"h"'));
    const alike = connections.filter((connection) => same(data(connection), data(first))).length;

    const delays: number[] = [];
    let mismatched = 0;
    let compared = 0;
    for (const [symbol, instrument] of symbols) {
      const truth = (await readTruth(exchange, instrument)).trades;
      const atExchange = new Map(
        truth.map((trade) => [tradeKey(trade.price, trade.amount, trade.time), trade.time]),
      );
      const streamed = first.lines
        .map((line, at) => ({ line, at }))
        .filter(({ line }) => line.includes('"f":"t"') && line.includes(`"id":"${symbol}"`))
        .map(({ line, at }) => ({ ...streamedTrade(line), arrival: first.arrivals[at] }));
      for (const trade of streamed) {
        const time = atExchange.get(tradeKey(trade.price, trade.amount, trade.time));
        if (time !== undefined) delays.push(trade.arrival - time);
      }
      const [from, to] = wholeMinutes(read);
      const built = streamedBars(streamed.filter((trade) => trade.time >= from && trade.time < to));
      const response = await fetch(
        `${url}/tradingview/history?symbol=${symbol}&resolution=1&from=${from / 1000}&to=${to / 1000 - 1}`,
      );
      const served = historyBars(await response.text());
      compared += Math.max(built.length, served.length);
      mismatched += mismatchedBars(built, served);
    }
    for (const connection of connections) connection.close();

    progress('streaming: the same lines from a bare node HTTP server');
    const { url: bareUrl } = await bare.request({ op: 'listen' }, 'listening');
    const linesFile = join(scratch, 'lines.json');
    writeFileSync(
      linesFile,
      JSON.stringify(first.lines.map((line, at) => [first.arrivals[at] - read.startedAt, line])),
    );
    const floor = Array.from({ length: count }, () => new FeedReader(bareUrl));
    await until(() => floor.every((connection) => connection.response), 'every bare connection open');
    const bareBefore = processCpuSeconds(bare.pid);
    const replayed = await bare.request({ op: 'replay', linesFile }, 'replayed');
    const bareCpu = processCpuSeconds(bare.pid) - bareBefore;
    for (const connection of floor) connection.close();

    const delivered = connections.reduce((sum, connection) => sum + connection.lines.length, 0);
    const streamingCpu = read.cpuSeconds - idle.cpuSeconds;
    const rows = [
      ['connections', `${settings.clients} clients × ${CONNECTIONS_PER_CLIENT}`],
      ['lines a connection (first)', `${first.lines.length.toLocaleString('en')} in ${settings.seconds} s`],
      ["connections with the first one's lines", `${alike} of ${count}`],
      [
        'lines delivered a second, every connection',
        Math.round(delivered / settings.seconds).toLocaleString('en'),
      ],
      [
        'trade delay p50 / p99 / max',
        `${percentile(delays, 50)} / ${percentile(delays, 99)} / ${percentile(delays, 100)} ms over ${delays.length} trades`,
      ],
      ['1-minute bars from streamed trades unequal to /history', `${mismatched} of ${compared}`],
      ['gateway cores, trades without readers', (idle.cpuSeconds / settings.seconds).toFixed(3)],
      ['gateway cores, with the readers', (read.cpuSeconds / settings.seconds).toFixed(3)],
      ['streaming lines a CPU second (the difference)', perCpu(delivered, streamingCpu)],
      ['bare node HTTP lines a CPU second (floor)', perCpu(replayed.lines, bareCpu)],
      ['streaming against the floor', (delivered / streamingCpu / (replayed.lines / bareCpu)).toFixed(2)],
      ['load average 1 min at start / end', `${loadAtStart.toFixed(2)} / ${loadavg()[0].toFixed(2)}`],
    ];
    print(`## TradingView streaming\n\n${describeMachine()}\n`);
    print('| Figure | Value |\n|---|---|');
    for (const [name, value] of rows) print(`| ${name} | ${value} |`);
    if (alike < count || mismatched > 0) {
      process.stderr.write('streaming: connections unalike or bars unequal to /history\n');
      process.exitCode = 1;
    }
  } finally {
    for (const connection of connections) connection.close();
    await bare.close();
    await gateway.stop();
    await sandbox.process.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface Phase {
  readonly startedAt: number;
  readonly endedAt: number;
  readonly cpuSeconds: number;
}

/** The flow on for `seconds`, the gateway's CPU over that time and the drain after it. */
async function phase(exchange: RunningSandbox, gateway: MainProcess, settings: Settings): Promise<Phase> {
  const before = gateway.cpuSeconds();
  const startedAt = Date.now();
  await setFlow(exchange, settings.flowRate);
  await sleep(settings.seconds * 1000);
  await setFlow(exchange, 0);
  const endedAt = Date.now();
  await sleep(DRAIN_MS);
  return { startedAt, endedAt, cpuSeconds: gateway.cpuSeconds() - before };
}

/** TradingView's symbol of each market the gateway lists, from its own mirror of the exchange's markets. */
async function symbolsOf(url: string): Promise<Map<string, string>> {
  const listed = new Set(
    ((await (await fetch(`${url}/tradingview/symbol_info`)).json()) as { symbol: string[] }).symbol,
  );
  const info = (await (await fetch(`${url}/frontoffice/api/info`)).json()) as {
    pairs: Record<string, unknown>;
  };
  const symbols = new Map<string, string>();
  for (const instrument of Object.keys(info.pairs)) {
    const symbol = instrument.replace('_', '').toUpperCase();
    if (listed.has(symbol)) symbols.set(symbol, instrument);
  }
  return symbols;
}

/** The minutes that began and ended inside the phase. */
function wholeMinutes(phase: Phase): [number, number] {
  return [
    phase.startedAt - (phase.startedAt % MINUTE_MS) + MINUTE_MS,
    phase.endedAt - (phase.endedAt % MINUTE_MS),
  ];
}

/** A trade by its price, amount and second (the feed's time is in seconds). */
function tradeKey(price: string, amount: string, time: number): string {
  return `${price}|${amount}|${Math.floor(time / 1000)}`;
}

function mismatchedBars(built: readonly ChartBar[], served: readonly ChartBar[]): number {
  const byTime = new Map(served.map((bar) => [bar.time, JSON.stringify(bar)]));
  let mismatched = 0;
  for (const bar of built) {
    if (byTime.get(bar.time) !== JSON.stringify(bar)) mismatched++;
    byTime.delete(bar.time);
  }
  return mismatched + byTime.size;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, at) => line === b[at]);
}

function perCpu(lines: number, cpuSeconds: number): string {
  return `${Math.round(lines / cpuSeconds).toLocaleString('en')} (${cpuSeconds.toFixed(2)} CPU s)`;
}

async function until(condition: () => unknown, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

void main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
