import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * `npm run bench`: every benchmark, one after the other, each in a node process of its own so that
 * none inherits another's heap, JIT state or child processes. The default run is the quick one, all
 * of it within QUICK_BUDGET_SECONDS on 2 cores; `--full` runs each benchmark's longer mode.
 *
 *   npm run bench                         every benchmark, quick
 *   npm run bench -- --full               every benchmark, full
 *   npm run bench -- --only book,http     the named ones; any other argument goes to each of them
 *
 * A benchmark is a TypeScript file that prints its figures (markdown) on stdout and exits non-zero when
 * it fails. To add one, append it to BENCHMARKS.
 */

interface Benchmark {
  readonly name: string;
  readonly file: string;
  /** Arguments of the quick run, which must keep the whole list within its time budget. */
  readonly quick: readonly string[];
  readonly full: readonly string[];
  /** About how long the quick run takes on 2 cores, to keep the list within its budget. */
  readonly quickSeconds: number;
}

const QUICK_BUDGET_SECONDS = 700;

const BENCHMARKS: readonly Benchmark[] = [
  { name: 'book', file: 'book-bench.ts', quick: [], full: ['--full'], quickSeconds: 30 },
  {
    name: 'snapshot-parse',
    file: 'snapshot-parse.ts',
    quick: [],
    full: ['--rounds', '50'],
    quickSeconds: 5,
  },
  { name: 'volume-sum', file: 'volume-sum-bench.ts', quick: [], full: ['--full'], quickSeconds: 5 },
  { name: 'catalog-join', file: 'catalog-join-bench.ts', quick: [], full: ['--full'], quickSeconds: 5 },
  { name: 'http', file: 'http-bench.ts', quick: ['--quick'], full: ['--full'], quickSeconds: 75 },
  {
    name: 'ingest-profile',
    file: 'book-ingest-profile.ts',
    quick: [],
    full: ['--full'],
    quickSeconds: 25,
  },
  { name: 'trade-list', file: 'trade-list-bench.ts', quick: [], full: ['--full'], quickSeconds: 8 },
  { name: 'store-write', file: 'store-write-bench.ts', quick: [], full: ['--full'], quickSeconds: 25 },
  {
    name: 'request-budget',
    file: 'request-budget-bench.ts',
    quick: [],
    full: ['--full'],
    quickSeconds: 13,
  },
  { name: 'compression', file: 'compression-bench.ts', quick: [], full: ['--full'], quickSeconds: 15 },
  { name: 'freshness', file: 'freshness-bench.ts', quick: [], full: ['--full'], quickSeconds: 60 },
  { name: 'cold-start', file: 'cold-start-bench.ts', quick: [], full: ['--full'], quickSeconds: 35 },
  { name: 'memory', file: 'memory-bench.ts', quick: [], full: ['--full'], quickSeconds: 30 },
  { name: 'stream', file: 'stream-bench.ts', quick: [], full: ['--full'], quickSeconds: 60 },
  {
    name: 'chart',
    file: 'chart-archive-bench.ts',
    quick: ['--rounds', '3'],
    full: ['--rounds', '9'],
    quickSeconds: 30,
  },
  {
    name: 'tradingview-streaming',
    file: 'tradingview-streaming-bench.ts',
    quick: ['--seconds', '20'],
    full: ['--full'],
    quickSeconds: 90,
  },
  {
    name: 'listing-health',
    file: 'listing-health-bench.ts',
    quick: ['--markets', '250', '--rounds', '3'],
    full: ['--full'],
    quickSeconds: 20,
  },
  {
    name: 'scale',
    file: 'scale-bench.ts',
    quick: ['--markets', '100,1000'],
    full: ['--markets', '100,1000,5000'],
    quickSeconds: 80,
  },
  {
    name: 'console',
    file: 'console-bench.ts',
    quick: ['--loads', '3', '--trades', '3'],
    full: ['--full'],
    quickSeconds: 12,
  },
  {
    name: 'recording',
    file: 'recording-bench.ts',
    quick: ['--seconds', '10'],
    full: ['--full'],
    quickSeconds: 45,
  },
];

function main(): void {
  const { full, only, passed } = readArguments(process.argv.slice(2));
  const unknown = only?.filter((name) => !BENCHMARKS.some((benchmark) => benchmark.name === name)) ?? [];
  if (unknown.length > 0)
    throw new Error(
      `--only: unknown ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`,
    );
  const selected = BENCHMARKS.filter((benchmark) => !only || only.includes(benchmark.name));
  const budget = selected.reduce((sum, benchmark) => sum + benchmark.quickSeconds, 0);
  if (!full && budget > QUICK_BUDGET_SECONDS)
    process.stderr.write(
      `The quick runs add up to about ${budget} s, over the ${QUICK_BUDGET_SECONDS} s budget\n`,
    );
  const started = Date.now();
  const failed: string[] = [];
  for (const benchmark of selected) {
    const args = [...(full ? benchmark.full : benchmark.quick), ...passed];
    process.stdout.write(`\n# ${benchmark.name}: ${benchmark.file} ${args.join(' ')}\n\n`);
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '-r', join(__dirname, 'swc-register.js'), join(__dirname, benchmark.file), ...args],
      { stdio: 'inherit' },
    );
    if (run.status !== 0) failed.push(`${benchmark.name} (${run.signal ?? `exit ${run.status}`})`);
  }
  process.stdout.write(`\nAll benchmarks: ${Math.round((Date.now() - started) / 1000)} s\n`);
  if (failed.length > 0) {
    process.stderr.write(`Failed: ${failed.join(', ')}\n`);
    process.exit(1);
  }
}

/** --full and --only belong to the runner; every other argument is passed to each benchmark. */
function readArguments(args: readonly string[]): { full: boolean; only?: string[]; passed: string[] } {
  let full = false;
  let only: string[] | undefined;
  const passed: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--full') full = true;
    else if (arg === '--only') only = (args[++i] ?? '').split(',');
    else if (arg.startsWith('--only=')) only = arg.slice('--only='.length).split(',');
    else passed.push(arg);
  }
  return { full, only, passed };
}

main();
