import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseMetrics } from '../support/metrics-text';
import {
  freePort,
  gatewayEnv,
  MainProcess,
  positive,
  progress,
  sleep,
  startSandboxProcess,
} from './bench-process';
import { describeMachine } from './machine';

/**
 * Cold start: from spawning the gateway (`node dist/main.js`, role `all`, state in memory) to every
 * book live and `/health/ready` answering 200, against a sandbox exchange of 1,000 markets that is
 * already running and warmed up (a day of history generated), with the exchange's REST limits on
 * (1 request/s under /frontoffice/, 2/s under /marketdata/) and a live order flow. The gateway's
 * `/health/ready` is polled every 100 ms; its `ingest.notLive` tells how many books are not live
 * yet. The sandbox's REST call counts show what the start asked of the rate-limited REST.
 *
 *   node -r ./test/bench/swc-register.js test/bench/cold-start-bench.ts            one start, about 60 s
 *   ... cold-start-bench.ts --full                                                 three starts
 *
 * Needs `npm run build` first (it runs dist/main.js).
 */

/** The target. */
const TARGET_MS = 15_000;
const POLL_MS = 100;

interface Start {
  /** Milliseconds from spawn to the first answer of /health/live. */
  readonly listeningMs: number;
  /** Milliseconds from spawn to every listed book live. */
  readonly booksLiveMs: number;
  /** Milliseconds from spawn to /health/ready 200. */
  readonly readyMs: number;
  readonly instruments: number;
  /** [ms since spawn, books live] every second or so, for the shape of the start. */
  readonly timeline: readonly (readonly [number, number])[];
  readonly restCalls: Record<string, number>;
  readonly resyncs: number;
  /** CPU seconds the gateway and the sandbox used from the spawn to ready. */
  readonly gatewayCpuSeconds: number;
  readonly sandboxCpuSeconds: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      markets: { type: 'string', default: '1000' },
      flow: { type: 'string', default: '1' },
      starts: { type: 'string' },
      'cpu-prof-dir': { type: 'string' },
    },
  });
  const profileDir = values['cpu-prof-dir'] && resolve(values['cpu-prof-dir']);
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const markets = positive(values.markets, 'markets');
  const starts = positive(values.starts ?? (values.full ? '3' : '1'), 'starts');
  const started = new Date();
  const loadAtStart = loadavg()[0];

  progress(`cold start: sandbox with ${markets} markets and a day of history (warm-up before timing)`);
  const warmUpStarted = performance.now();
  const sandbox = await startSandboxProcess(
    { SANDBOX_MARKET_COUNT: String(markets), SANDBOX_FLOW_RATE: values.flow, SANDBOX_RATE_LIMITS: 'true' },
    300_000,
  );
  const sandboxWarmUpMs = performance.now() - warmUpStarted;
  const results: Start[] = [];
  try {
    for (let run = 0; run < starts; run++) {
      progress(`cold start ${run + 1}/${starts}: spawning the gateway`);
      results.push(await coldStart(sandbox.url, sandbox.process, profileDir));
      const last = results[results.length - 1];
      progress(`  books live ${Math.round(last.booksLiveMs)} ms, ready ${Math.round(last.readyMs)} ms`);
    }
  } finally {
    await sandbox.process.stop();
  }

  const lines = [
    `Run ${started.toISOString()}, ${Math.round((Date.now() - started.getTime()) / 1000)} s`,
    `Machine: ${describeMachine()}`,
    `Command: node -r ./test/bench/swc-register.js test/bench/cold-start-bench.ts${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
    `Load average (1 min) at start and end: ${loadAtStart.toFixed(2)}, ${loadavg()[0].toFixed(2)}`,
    `Sandbox: ${markets} markets, ${values.flow} synthetic orders/s each, REST limits on; its own warm-up took ` +
      `${(sandboxWarmUpMs / 1000).toFixed(1)} s before the gateway was spawned (not counted)`,
    '',
    '| start | listening | every book live | /health/ready 200 | **ready / 15 s target** | CPU to ready, gateway / sandbox | REST calls during the start (/marketdata/, /frontoffice/) | re-syncs |',
    '| --- | ---: | ---: | ---: | --- | ---: | --- | ---: |',
  ];
  for (const [index, start] of results.entries()) {
    const ratio = start.readyMs / TARGET_MS;
    lines.push(
      `| ${index + 1} (${start.instruments} books) | ${seconds(start.listeningMs)} | ${seconds(start.booksLiveMs)} | ` +
        `${seconds(start.readyMs)} | **${ratio.toFixed(2)}**${ratio <= 1 ? '' : ' (missed)'} | ` +
        `${start.gatewayCpuSeconds.toFixed(1)} s / ${start.sandboxCpuSeconds.toFixed(1)} s | ` +
        `${start.restCalls.marketdata ?? 0}, ${start.restCalls.frontoffice ?? 0} | ${start.resyncs} |`,
    );
  }
  lines.push(
    '',
    'Books live over time (first start): ' +
      results[0].timeline.map(([ms, live]) => `${seconds(ms)} ${live}`).join(', '),
    '',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function coldStart(sandboxUrl: string, sandbox: MainProcess, profileDir?: string): Promise<Start> {
  const callsBefore = await restCalls(sandboxUrl);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const sandboxCpu = sandbox.cpuSeconds();
  const gateway = MainProcess.spawn('gateway', {
    env: { ROLE: 'all', ...gatewayEnv(sandboxUrl, port) },
    nodeOptions: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  const spawnedAt = gateway.startedAt;
  try {
    const listeningMs = (await gateway.waitFor(`${url}/health/live`, 60_000)) - spawnedAt;
    const timeline: [number, number][] = [];
    let booksLiveMs: number | undefined;
    let instruments = 0;
    let lastTimelineAt = -Infinity;
    const deadline = performance.now() + 120_000;
    for (;;) {
      if (gateway.exited) throw new Error(`gateway exited:\n${gateway.recentOutput()}`);
      if (performance.now() > deadline) throw new Error(`not ready within 120 s:\n${gateway.recentOutput()}`);
      const response = await fetch(`${url}/health/ready`);
      const at = performance.now() - spawnedAt;
      const body = (await response.json()) as { ingest?: { instruments?: number; notLive?: unknown[] } };
      const ingest = body.ingest;
      if (ingest?.instruments !== undefined && ingest.notLive !== undefined) {
        instruments = ingest.instruments;
        const live = instruments - ingest.notLive.length;
        if (at - lastTimelineAt >= 1_000) {
          timeline.push([at, live]);
          lastTimelineAt = at;
        }
        if (booksLiveMs === undefined && instruments > 0 && live === instruments) booksLiveMs = at;
      }
      if (response.status === 200) {
        const gatewayCpuSeconds = gateway.cpuSeconds();
        const sandboxCpuSeconds = sandbox.cpuSeconds() - sandboxCpu;
        const metrics = parseMetrics(await (await fetch(`${url}/metrics`)).text());
        const resyncs = metrics
          .filter((sample) => sample.name === 'mdg_book_resyncs_total')
          .reduce((sum, sample) => sum + sample.value, 0);
        const callsAfter = await restCalls(sandboxUrl);
        const calls: Record<string, number> = {};
        for (const family of Object.keys(callsAfter))
          calls[family] = (callsAfter[family] ?? 0) - (callsBefore[family] ?? 0);
        timeline.push([at, instruments]);
        return {
          listeningMs,
          booksLiveMs: booksLiveMs ?? at,
          readyMs: at,
          instruments,
          timeline,
          restCalls: calls,
          resyncs,
          gatewayCpuSeconds,
          sandboxCpuSeconds,
        };
      }
      await sleep(POLL_MS);
    }
  } finally {
    await gateway.stop();
  }
}

/** REST calls the sandbox served (and refused) per path family so far. */
async function restCalls(sandboxUrl: string): Promise<Record<string, number>> {
  const stats = (await (await fetch(`${sandboxUrl}/sandbox/stats`)).json()) as Record<
    string,
    { served?: number; limited?: number }
  >;
  return Object.fromEntries(
    Object.entries(stats).map(([family, counts]) => [family, (counts.served ?? 0) + (counts.limited ?? 0)]),
  );
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
