import autocannon from 'autocannon';
import { ServerProcess } from './server-process';

/** The load generator's settings: the same for both servers. */
export interface LoadSettings {
  readonly connections: number;
  readonly pipelining: number;
  /** Seconds of load that are measured. */
  readonly durationSeconds: number;
  /** Seconds of load on each server before its first measurement, not counted: JIT, compressed forms. */
  readonly warmUpSeconds: number;
}

export interface Measurement {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Mean bytes per response, headers included. */
  readonly bytesPerResponse: number;
  /** CPU the server used, as a share of one core (1 = one core fully busy). */
  readonly serverCpu: number;
  /** CPU the load generator used, as a share of one core. */
  readonly loadCpu: number;
}

/** Loads `server` with GETs of `path` for the warm-up time, unmeasured; every answer must be a 200. */
export async function warmUp(
  server: ServerProcess,
  path: string,
  headers: Record<string, string>,
  settings: LoadSettings,
): Promise<void> {
  check(
    await autocannon({ ...options(server, path, headers, settings), duration: settings.warmUpSeconds }),
    server,
    path,
  );
}

/** Loads `server` with GETs of `path` and measures it; every answer must be a 200. */
export async function measure(
  server: ServerProcess,
  path: string,
  headers: Record<string, string>,
  settings: LoadSettings,
): Promise<Measurement> {
  const serverCpuBefore = server.cpuSeconds();
  const loadCpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = check(
    await autocannon({ ...options(server, path, headers, settings), duration: settings.durationSeconds }),
    server,
    path,
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const loadCpu = process.cpuUsage(loadCpuBefore);
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    bytesPerResponse: result.throughput.total / result.requests.total,
    serverCpu: (server.cpuSeconds() - serverCpuBefore) / elapsed,
    loadCpu: (loadCpu.user + loadCpu.system) / 1e6 / elapsed,
  };
}

function options(
  server: ServerProcess,
  path: string,
  headers: Record<string, string>,
  settings: LoadSettings,
): autocannon.Options {
  return {
    url: server.url + path,
    headers,
    connections: settings.connections,
    pipelining: settings.pipelining,
  };
}

function check(result: autocannon.Result, server: ServerProcess, path: string): autocannon.Result {
  if (result.errors > 0 || result.non2xx > 0 || result.requests.total === 0)
    throw new Error(
      `${server.name} ${path}: ${result.requests.total} responses, ${result.non2xx} not 2xx, ${result.errors} errors`,
    );
  return result;
}
