import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { RecordedForBare } from './bare-process';
import { positive } from './bench-process';
import { LoadSettings, Measurement, measure, warmUp } from './load';
import { describeMachine } from './machine';
import { rawGet, recordResponse, RecordedResponse } from './raw-http';
import { ServerProcess } from './server-process';
import { startRedisServer, TestRedisServer } from '../support/redis-server';

/**
 * Requests per second of the gateway's cached listing endpoints against a bare node:http server
 * that sends the same bytes, under the same load generator (autocannon, in this process) in the
 * same run. Each server has a process of its own, and so has the sandbox exchange the gateway
 * ingests from, which keeps running throughout as an exchange would. The two servers take turns,
 * the idle one frozen, and the rounds alternate which goes first, so that a change in the
 * machine's background load hits both alike; a round's ratio compares two back-to-back runs.
 *
 * The gateway runs in role `all` (one process ingests and serves) and in role `api`, the production
 * topology: an `ingest` process writes to a private redis-server and the `api` process only serves.
 *
 *   npm run bench -- --only http              about 1 minute (also --quick, as run-all.ts runs it):
 *                                             the quiet market in role api (the production topology),
 *                                             3 rounds of 1 s; role all with --full or by --scenario
 *   npm run bench -- --only http --full       about 40 minutes: moving markets too, 7 rounds of 10 s
 *   npm run bench -- --only http --scenario api-quiet --rounds 7 --duration 3
 *   npm run bench -- --only http --scenario all-quiet --cpu-prof-dir prof   the gateway profiled
 *   npm run bench -- --only http --listing-health-poll 1000   the gateway also measured while
 *                                             /listing-health is asked for every second, its books
 *                                             read again each time (listingHealthRefreshMs 1000)
 */

interface Scenario {
  readonly name: string;
  readonly description: string;
  /** `all`: the gateway ingests and serves; `api`: it serves what an `ingest` process writes to Redis. */
  readonly role: 'all' | 'api';
  /** The sandbox's synthetic orders per second per market. */
  readonly flowRate: number;
  readonly paths: readonly string[];
  /** Only with `--full` (or when asked for by name). */
  readonly fullOnly: boolean;
}

/** btc_usdt: the sandbox keeps about 2,400 resting orders per market, some 1,400 price levels. */
const FULL_BOOK = '/orderbook/btc_usdt';

const QUIET_PATHS = ['/summary', '/ticker', FULL_BOOK, '/coingecko/tickers'];
const MOVING_PATHS = ['/summary', FULL_BOOK];

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'all-quiet',
    description:
      'role all (one process ingests and serves), quiet market: no order flow, so every response comes from the response cache',
    role: 'all',
    flowRate: 0,
    paths: QUIET_PATHS,
    fullOnly: true,
  },
  {
    name: 'api-quiet',
    description:
      'role api (an ingest process writes to Redis, the api process only serves), quiet market: every response comes from the response cache',
    role: 'api',
    flowRate: 0,
    paths: QUIET_PATHS,
    fullOnly: false,
  },
  {
    name: 'all-moving',
    description:
      'role all, moving market: 20 synthetic orders/s per market, so the gateway ingests and rebuilds bodies as the state moves',
    role: 'all',
    flowRate: 20,
    paths: MOVING_PATHS,
    fullOnly: true,
  },
  {
    name: 'api-moving',
    description:
      'role api, moving market: 20 synthetic orders/s per market; the api process reads the moving state from Redis and rebuilds bodies',
    role: 'api',
    flowRate: 20,
    paths: MOVING_PATHS,
    fullOnly: true,
  },
];

const ENCODINGS: readonly { readonly name: string; readonly headers: Record<string, string> }[] = [
  { name: 'none', headers: {} },
  { name: 'gzip', headers: { 'accept-encoding': 'gzip' } },
];

/** The target: the gateway serves at least this share of the bare server's requests/s. */
const TARGET_RATIO = 0.8;

interface Row {
  readonly scenario: Scenario;
  readonly path: string;
  readonly encoding: string;
  readonly gateway: Measurement[];
  readonly bare: Measurement[];
  /** With `--via-fastify`: the gateway answering through Fastify's routes instead of its fast path. */
  readonly viaFastify: Measurement[];
  /** With `--listing-health-poll`: the gateway while `/listing-health` is asked for meanwhile. */
  readonly healthPolled: Measurement[];
  /** How often the body the gateway sent changed during its measurements, per second. */
  readonly changesPerSecond: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string', default: '50' },
      scenario: { type: 'string' },
      'cpu-prof-dir': { type: 'string' },
      'via-fastify': { type: 'boolean', default: false },
      'listing-health-poll': { type: 'string' },
    },
  });
  const healthPollMs =
    values['listing-health-poll'] === undefined
      ? undefined
      : positive(values['listing-health-poll'], 'listing-health-poll');
  const settings: LoadSettings = {
    connections: positive(values.connections, 'connections'),
    pipelining: 1,
    durationSeconds: positive(values.duration ?? (values.full ? '10' : '1'), 'duration'),
    warmUpSeconds: values.full ? 2 : 0.5,
  };
  const rounds = positive(values.rounds ?? (values.full ? '7' : '3'), 'rounds');
  const scenarios = SCENARIOS.filter((scenario) =>
    values.scenario ? scenario.name === values.scenario : values.full || !scenario.fullOnly,
  );
  if (scenarios.length === 0)
    throw new Error(`--scenario: one of ${SCENARIOS.map((s) => s.name).join(', ')}`);
  const profileDir = values['cpu-prof-dir'] && resolve(values['cpu-prof-dir']);
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  const started = new Date();
  const loadAtStart = loadavg()[0];
  const rows: Row[] = [];
  // Scenarios of the same market share one sandbox exchange, which saves starting another.
  for (const flowRate of new Set(scenarios.map((scenario) => scenario.flowRate))) {
    progress(`starting the sandbox exchange (flow ${flowRate}/s per market)`);
    const sandbox = await ServerProcess.start('sandbox', 'sandbox-process.ts', {
      env: { BENCH_FLOW_RATE: String(flowRate) },
    });
    try {
      for (const scenario of scenarios.filter((s) => s.flowRate === flowRate))
        rows.push(
          ...(await runScenario(
            scenario,
            sandbox,
            settings,
            rounds,
            profileDir,
            values['via-fastify'],
            healthPollMs,
          )),
        );
    } finally {
      await sandbox.close();
    }
  }

  const out = [
    `Run ${started.toISOString()}, ${Math.round((Date.now() - started.getTime()) / 1000)} s`,
    `Machine: ${describeMachine()}`,
    `Command: npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    `Load: autocannon, ${settings.connections} connections, pipelining ${settings.pipelining}; per endpoint ` +
      `a ${settings.warmUpSeconds} s warm-up of each server, then per encoding ${rounds} rounds of ` +
      `${settings.durationSeconds} s on each, the servers taking turns` +
      (values['via-fastify']
        ? ' (the gateway twice: by its fast path, and via Fastify with `?via=fastify` added)'
        : '') +
      (healthPollMs
        ? `; the gateway also while /listing-health is asked for every ${healthPollMs} ms (its books read again each time)`
        : ''),
    "Figures are medians of the rounds; gateway/bare is the median of the rounds' ratios (a round's two " +
      'runs are back to back); per CPU-second compares requests per second of server CPU time',
    `Load average (1 min) at start and end: ${loadAtStart.toFixed(2)}, ${loadavg()[0].toFixed(2)}`,
    '',
  ];
  for (const scenario of scenarios)
    out.push(
      ...table(
        scenario,
        rows.filter((row) => row.scenario === scenario),
      ),
    );
  process.stdout.write(`${out.join('\n')}\n`);
}

async function runScenario(
  scenario: Scenario,
  sandbox: ServerProcess,
  settings: LoadSettings,
  rounds: number,
  profileDir: string | undefined,
  viaFastify: boolean,
  healthPollMs: number | undefined,
): Promise<Row[]> {
  progress(`${scenario.name}: starting the gateway (role ${scenario.role})`);
  let redis: TestRedisServer | undefined;
  let ingest: ServerProcess | undefined;
  let gateway: ServerProcess | undefined;
  let bare: ServerProcess | undefined;
  try {
    const roleEnv: Record<string, string> = {
      BENCH_ROLE: scenario.role,
      BENCH_UPSTREAM_URL: sandbox.url,
      ...(healthPollMs ? { BENCH_LISTING_HEALTH_REFRESH_MS: String(healthPollMs) } : {}),
    };
    if (scenario.role === 'api') {
      redis = await startRedisServer();
      roleEnv.BENCH_REDIS_URL = redis.url;
      ingest = await ServerProcess.start('ingest', 'gateway-process.ts', {
        env: { ...roleEnv, BENCH_ROLE: 'ingest' },
      });
    }
    gateway = await ServerProcess.start('gateway', 'gateway-process.ts', {
      env: roleEnv,
      nodeOptions: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    await waitUntilServing(gateway.url, scenario.paths);
    const recorded: RecordedResponse[] = [];
    for (const path of scenario.paths) recorded.push(await recordResponse(gateway.url, path));
    bare = await ServerProcess.start('bare', 'bare-process.ts', { init: recorded.map(forBare) });
    for (const response of recorded) await checkSameBytes(bare, response);

    const rows: Row[] = [];
    for (const path of scenario.paths) {
      for (const encoding of ENCODINGS) {
        const row: Row = {
          scenario,
          path,
          encoding: encoding.name,
          gateway: [],
          bare: [],
          viaFastify: [],
          healthPolled: [],
          changesPerSecond: 0,
        };
        // A query string is left to Fastify's routes: the same handler, and the same bytes for a
        // parameter no endpoint reads. (An empty one would not do: the load generator drops it.)
        const targets: Target[] = [
          { name: 'gateway', server: gateway, path, results: row.gateway },
          { name: 'bare', server: bare, path, results: row.bare },
          ...(viaFastify
            ? [
                {
                  name: 'gateway via Fastify',
                  server: gateway,
                  path: `${path}?via=fastify`,
                  results: row.viaFastify,
                },
              ]
            : []),
          ...(healthPollMs
            ? [
                {
                  name: 'gateway, /listing-health polled',
                  server: gateway,
                  path,
                  results: row.healthPolled,
                  healthPollMs,
                },
              ]
            : []),
        ];
        if (encoding === ENCODINGS[0]) {
          for (const target of targets) {
            switchTo(target.server, [gateway, bare]);
            await warmUp(target.server, target.path, encoding.headers, settings);
          }
        }
        let changes = 0;
        for (let round = 0; round < rounds; round++) {
          const order = round % 2 === 0 ? targets : [...targets].reverse();
          for (const target of order) {
            switchTo(target.server, [gateway, bare]);
            const watch = target.name === 'gateway' ? watchEtag(gateway.url + path) : undefined;
            const poller = target.healthPollMs
              ? poll(`${gateway.url}/listing-health`, target.healthPollMs)
              : undefined;
            const measurement = await measure(target.server, target.path, encoding.headers, settings);
            if (watch) changes += await watch.stop();
            await poller?.stop();
            target.results.push(measurement);
            progress(
              `${scenario.name} ${path} ${encoding.name} round ${round + 1} ${target.name}: ${line(measurement)}`,
            );
          }
        }
        rows.push({ ...row, changesPerSecond: changes / (rounds * settings.durationSeconds) });
      }
    }
    return rows;
  } finally {
    await bare?.close();
    await gateway?.close();
    await ingest?.close();
    await redis?.stop();
  }
}

/** One way of loading a server: the gateway (fast path or via Fastify) or the bare peer. */
interface Target {
  readonly name: string;
  readonly server: ServerProcess;
  readonly path: string;
  readonly results: Measurement[];
  /** Ask for `/listing-health` this often while measuring. */
  readonly healthPollMs?: number;
}

/** Freezes every server but `server`, which runs. */
function switchTo(server: ServerProcess, servers: readonly ServerProcess[]): void {
  for (const other of servers) if (other !== server) other.pause();
  server.resume();
}

/** The gateway answers 503 until it has loaded the catalogue and the books. */
async function waitUntilServing(baseUrl: string, paths: readonly string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const path of paths) {
    while ((await rawGet(baseUrl + path)).status !== 200) {
      if (Date.now() > deadline) throw new Error(`the gateway did not serve ${path} within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The bare server must send exactly the recorded bytes, plain and gzipped. */
async function checkSameBytes(bare: ServerProcess, recorded: RecordedResponse): Promise<void> {
  const plain = await rawGet(bare.url + recorded.path);
  const gzip = await rawGet(bare.url + recorded.path, { 'accept-encoding': 'gzip' });
  if (!plain.body.equals(recorded.plainBody) || !gzip.body.equals(recorded.gzipBody))
    throw new Error(`bare server: ${recorded.path} is not the gateway's bytes`);
  if (plain.headers.etag !== recorded.plainHeaders.etag)
    throw new Error(`bare server: ${recorded.path} lacks the gateway's headers`);
}

/** Asks for `url` every `intervalMs` (from the end of one answer), as Prometheus would scrape. */
function poll(url: string, intervalMs: number): { stop(): Promise<void> } {
  let running = true;
  const polling = (async () => {
    while (running) {
      await rawGet(url);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await polling;
    },
  };
}

/** Polls the ETag of `url` during a measurement to count how often the body changed. */
function watchEtag(url: string): { stop(): Promise<number> } {
  let running = true;
  let changes = 0;
  const polling = (async () => {
    let last: string | undefined;
    while (running) {
      const { headers } = await rawGet(url);
      if (last !== undefined && headers.etag !== last) changes++;
      last = headers.etag;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await polling;
      return changes;
    },
  };
}

function forBare(response: RecordedResponse): RecordedForBare {
  return {
    path: response.path,
    plainHeaders: response.plainHeaders,
    plainBody: response.plainBody.toString('base64'),
    gzipHeaders: response.gzipHeaders,
    gzipBody: response.gzipBody.toString('base64'),
  };
}

function table(scenario: Scenario, rows: readonly Row[]): string[] {
  const viaFastify = rows.some((row) => row.viaFastify.length > 0);
  const healthPolled = rows.some((row) => row.healthPolled.length > 0);
  const lines = [
    `### ${scenario.description}`,
    '',
    '| endpoint | encoding | bytes/response | gateway req/s | bare req/s | **gateway/bare** (min–max of rounds) | p50 / p99 ms gateway | p50 / p99 ms bare | server CPU gateway / bare | gateway/bare per CPU-second | body changes/s |' +
      (viaFastify ? ' via Fastify req/s | fast path/via Fastify | per CPU-second |' : '') +
      (healthPolled ? ' /listing-health polled req/s | **polled/not** (min–max) |' : ''),
    '| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |' +
      (viaFastify ? ' ---: | ---: | ---: |' : '') +
      (healthPolled ? ' ---: | --- |' : ''),
  ];
  for (const row of rows) {
    const gateway = summarize(row.gateway);
    const bare = summarize(row.bare);
    // Each round's servers ran back to back, so a round's ratio shares its background load.
    const ratios = roundRatios(row.gateway, row.bare);
    const ratio = median(ratios);
    const verdict = ratio >= TARGET_RATIO ? '' : ' below target';
    let line =
      `| ${row.path} | ${row.encoding} | ${Math.round(gateway.bytesPerResponse)} | ` +
      `${Math.round(gateway.requestsPerSecond)} | ${Math.round(bare.requestsPerSecond)} | ` +
      `**${ratio.toFixed(2)}** (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})${verdict} | ` +
      `${gateway.p50Ms} / ${gateway.p99Ms} | ${bare.p50Ms} / ${bare.p99Ms} | ` +
      `${percent(gateway.serverCpu)} / ${percent(bare.serverCpu)} | ${perCpuRatio(row.gateway, row.bare).toFixed(2)} | ` +
      `${row.changesPerSecond.toFixed(1)} |`;
    if (viaFastify) {
      line +=
        ` ${Math.round(summarize(row.viaFastify).requestsPerSecond)} | ` +
        `${median(roundRatios(row.gateway, row.viaFastify)).toFixed(2)} | ` +
        `${perCpuRatio(row.gateway, row.viaFastify).toFixed(2)} |`;
    }
    if (healthPolled) {
      const polled = roundRatios(row.healthPolled, row.gateway);
      line +=
        ` ${Math.round(summarize(row.healthPolled).requestsPerSecond)} | ` +
        `**${median(polled).toFixed(2)}** (${Math.min(...polled).toFixed(2)}–${Math.max(...polled).toFixed(2)}) |`;
    }
    lines.push(line);
  }
  lines.push('');
  return lines;
}

function roundRatios(measured: readonly Measurement[], peer: readonly Measurement[]): number[] {
  return measured.map((m, i) => m.requestsPerSecond / peer[i].requestsPerSecond);
}

/** Requests per second of server CPU time, against the peer's, median of the rounds. */
function perCpuRatio(measured: readonly Measurement[], peer: readonly Measurement[]): number {
  return median(
    measured.map(
      (m, i) => m.requestsPerSecond / m.serverCpu / (peer[i].requestsPerSecond / peer[i].serverCpu),
    ),
  );
}

/** The median of each figure over the rounds. */
function summarize(measurements: readonly Measurement[]): Measurement {
  const of = (figure: keyof Measurement): number => median(measurements.map((m) => m[figure]));
  return {
    requestsPerSecond: of('requestsPerSecond'),
    p50Ms: of('p50Ms'),
    p99Ms: of('p99Ms'),
    bytesPerResponse: of('bytesPerResponse'),
    serverCpu: of('serverCpu'),
    loadCpu: of('loadCpu'),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function line(m: Measurement): string {
  return (
    `${Math.round(m.requestsPerSecond)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, ` +
    `${Math.round(m.bytesPerResponse)} B, server CPU ${percent(m.serverCpu)}, load generator CPU ${percent(m.loadCpu)}`
  );
}

function percent(share: number): string {
  return Number.isNaN(share) ? 'n/a' : `${Math.round(share * 100)}%`;
}

function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
