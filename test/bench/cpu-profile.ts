import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a V8 `.cpuprofile` (as `node --cpu-prof` writes it) that the tables read. */
export interface CpuProfile {
  /** Microseconds on the monotonic clock, the one `monotonicMicros()` reads. */
  readonly startTime: number;
  readonly endTime: number;
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

/** A stretch of a profile, in microseconds on the monotonic clock. */
export interface ProfileWindow {
  readonly start: number;
  readonly end: number;
}

/** Now on the clock V8 stamps its profiles with (CLOCK_MONOTONIC on Linux), in microseconds. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** The profile `node --cpu-prof --cpu-prof-dir=dir` wrote for process `pid` (`CPU.date.time.pid.thread.seq.cpuprofile`). */
export function readCpuProfile(dir: string, pid: number): CpuProfile {
  const name = readdirSync(dir).find(
    (file) => file.endsWith('.cpuprofile') && file.split('.')[3] === String(pid),
  );
  if (!name) throw new Error(`no CPU profile of process ${pid} in ${dir}`);
  return JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile;
}

/** Areas of the gateway by source file (src/ when run from source, dist/ when built); the first match wins. */
const AREAS: readonly (readonly [area: string, pattern: RegExp])[] = [
  ['garbage collection', /^\(garbage collector\)/],
  ['JSON parse (exact)', /exact-json|lossless-json/],
  ['hub protocol and client', /upstream\/hub\/|@microsoft\/signalr/],
  ['book item decode', /json-fields|book-item\.codec/],
  ['decimals', /market\/decimal|big\.js/],
  ['order book', /market\/order-book|book-synchronizer/],
  ['trade window', /market\/trade-window/],
  ['pipeline and store', /(src|dist)\/(ingest|store)\//],
  ['Redis client', /ioredis|redis-parser|denque|cluster-key-slot/],
  ['websocket', /node_modules\/ws\//],
  ['API views and responses', /(src|dist)\/api\//],
  ['HTTP server', /fastify|find-my-way|^node:_http/],
  ['zlib', /^node:zlib/],
  ['node internals', /^node:|^internal|^$/],
];

/**
 * Self time by area and the top functions, over the samples of one or more profiles taken within
 * `window`, as Markdown tables; shares of the busy time (idle and program time left out).
 */
export function profileTables(profiles: CpuProfile | readonly CpuProfile[], window: ProfileWindow): string[] {
  const byFunction = new Map<string, number>();
  let total = 0;
  const list: readonly CpuProfile[] = 'nodes' in profiles ? [profiles] : profiles;
  for (const profile of list) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    let time = profile.startTime;
    profile.samples.forEach((id, index) => {
      const self = profile.timeDeltas[index] ?? 0;
      time += self;
      if (time < window.start || time > window.end) return;
      const frame = nodes.get(id)!.callFrame;
      const where = frame.url.replace(/^.*?\/((?:node_modules|src|dist)\/)/, '$1');
      const key = `${frame.functionName || '(anonymous)'} ${where}${frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : ''}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + self);
      total += self;
    });
  }
  const busy = [...byFunction].filter(([key]) => !key.startsWith('(idle)') && !key.startsWith('(program)'));
  const busyTotal = busy.reduce((sum, [, time]) => sum + time, 0);
  const byArea = new Map<string, number>();
  for (const [key, time] of busy) {
    const area =
      AREAS.find(([, pattern]) => pattern.test(key.slice(key.indexOf(' ') + 1)) || pattern.test(key))?.[0] ??
      'other';
    byArea.set(area, (byArea.get(area) ?? 0) + time);
  }
  const share = (time: number) => `${((100 * time) / busyTotal).toFixed(1)} %`;
  return [
    `Busy ${((100 * busyTotal) / total).toFixed(0)} % of the window's samples; shares of the busy time:`,
    '',
    '| area | self time |',
    '| --- | ---: |',
    ...[...byArea].sort((a, b) => b[1] - a[1]).map(([area, time]) => `| ${area} | ${share(time)} |`),
    '',
    '| function | self time |',
    '| --- | ---: |',
    ...busy
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([key, time]) => `| \`${key}\` | ${share(time)} |`),
    '',
  ];
}
