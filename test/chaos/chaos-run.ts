import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine } from '../bench/machine';
import { chaosMarkdown } from './chaos-report';
import { RedisTopology } from './chaos-redis';
import { CHAOS_SCENARIOS, ChaosScenario, ChaosScenarioName, isChaosScenario } from './chaos-scenarios';
import { ChaosMode } from './chaos-stack';
import { ChaosFaultKind, faultKindsOf } from './fault-schedule';
import { ChaosResult, runChaos } from './run-chaos';

/**
 * The chaos run, out of the test suite (npm run chaos). Needs a current build: the gateway runs as
 * processes of `dist/main.js`, as in production.
 *
 *   npm run chaos                                   5 minutes, single process, seed 1
 *   npm run chaos -- --mode multi --seed 7          three ingest and two API processes
 *   npm run chaos -- --minutes 1 --faults silence,redis-restart
 *   npm run chaos -- --mode multi --redis sentinel  on a primary, two replicas and three Sentinels
 *   npm run chaos -- --only sentinel                a named scenario (several: --only single,sentinel)
 *
 * The scenarios (chaos-scenarios.ts): `single` and `sentinel`, the full fault lists of the two chaos
 * suites, and `stream-replicas`, that suite through every fault of the sandbox.
 *
 * Writes `chaos-<mode>-<seed>.json` and `.md` (`chaos-<mode>-sentinel-<seed>` on Sentinels;
 * `chaos-<scenario>` for a named one) to `--out` (default reliability-results/). With GATEWAY_LOG_DIR
 * set, each process's log is kept there. Exits 1 when any run was not clean.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '5' },
      seed: { type: 'string', default: '1' },
      mode: { type: 'string', default: 'single' },
      redis: { type: 'string', default: 'standalone' },
      flow: { type: 'string', default: '10' },
      'converge-timeout': { type: 'string', default: '60' },
      faults: { type: 'string' },
      only: { type: 'string' },
      out: { type: 'string', default: 'reliability-results' },
    },
  });
  const directory = resolve(values.out);
  const command = `npm run chaos -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, '');
  if (values.only !== undefined) {
    const names = values.only.split(',');
    const unknown = names.filter((name) => !isChaosScenario(name));
    if (unknown.length)
      throw new Error(
        `unknown scenarios ${unknown.join(', ')}; known: ${Object.keys(CHAOS_SCENARIOS).join(', ')}`,
      );
    let clean = true;
    for (const name of names as ChaosScenarioName[]) {
      const scenario: ChaosScenario = CHAOS_SCENARIOS[name];
      log(`scenario ${name}: ${scenario.description}`);
      if ('suite' in scenario) {
        clean = runSuite(scenario.suite, scenario.env) && clean;
        continue;
      }
      const result = await runChaos({ ...scenario.options, log });
      clean = report(result, `npm run chaos -- --only ${name}`, resolve(directory, `chaos-${name}`)) && clean;
    }
    process.exitCode = clean ? 0 : 1;
    return;
  }
  const mode = values.mode as ChaosMode;
  if (mode !== 'single' && mode !== 'multi') throw new Error('--mode is single or multi');
  const topology = values.redis as RedisTopology;
  if (topology !== 'standalone' && topology !== 'sentinel')
    throw new Error('--redis is standalone or sentinel');
  const known = faultKindsOf(topology);
  const kinds = values.faults?.split(',') as ChaosFaultKind[] | undefined;
  const unknown = kinds?.filter((kind) => !known.includes(kind));
  if (unknown?.length)
    throw new Error(`unknown faults ${unknown.join(', ')} on ${topology} Redis; known: ${known.join(', ')}`);
  const seed = Number(values.seed);
  const result = await runChaos({
    mode,
    redis: topology,
    seed,
    durationMs: Number(values.minutes) * 60_000,
    flowRate: Number(values.flow),
    convergeTimeoutMs: Number(values['converge-timeout']) * 1_000,
    kinds,
    log,
  });
  const base = resolve(directory, `chaos-${mode}${topology === 'sentinel' ? '-sentinel' : ''}-${seed}`);
  process.exitCode = report(result, command, base) ? 0 : 1;
}

/** Runs one Jest suite in its long version; true when it passed. */
function runSuite(suite: string, env: Readonly<Record<string, string>>): boolean {
  const jest = resolve(__dirname, '../../node_modules/jest/bin/jest.js');
  const run = spawnSync(process.execPath, [jest, suite], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return run.status === 0;
}

function log(line: string): void {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

/** Writes the run's JSON and Markdown next to `base`, prints the Markdown; true when the run was clean. */
function report(result: ChaosResult, command: string, base: string): boolean {
  const markdown = chaosMarkdown(result, command, describeMachine());
  mkdirSync(dirname(base), { recursive: true });
  writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(`${base}.md`, `${markdown}\n`);
  process.stdout.write(`\n${markdown}\n\nWritten to ${base}.json and ${base}.md\n`);
  return (
    result.lostTrades.length === 0 &&
    result.doubledTrades.length === 0 &&
    result.vanishedTrades.length === 0 &&
    result.violations.length === 0 &&
    result.owners.changesByCause.unexplained === 0 &&
    result.owners.tokenRegressions.length === 0 &&
    result.load.failed === 0 &&
    result.faults.every((fault) => fault.converged) &&
    result.finalConvergence.converged
  );
}

main().then(
  // Keep-alive sockets of the load generator would hold the process open.
  () => process.exit(),
  (error: unknown) => {
    process.stderr.write(`chaos: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
