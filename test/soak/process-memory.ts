import { readFile } from 'node:fs/promises';
import { MetricSample } from '../support/metrics-text';

/** What the kernel says a process holds (Linux `/proc/<pid>`), to tell the V8 heap from the rest. */
export interface KernelMemory {
  /** Resident anonymous memory: the V8 heap, malloc's heaps, thread stacks. */
  readonly rssAnonBytes: number;
  /** Resident pages of mapped files: the node binary and shared libraries. */
  readonly rssFileBytes: number;
  /** Resident part of the `[heap]` mapping: the main thread's malloc arena, grown by brk. */
  readonly mainArenaBytes: number;
  readonly threads: number;
}

/** The process's memory as `/proc/<pid>/status` and `/proc/<pid>/smaps` give it. */
export async function readKernelMemory(pid: number): Promise<KernelMemory> {
  const [status, smaps] = await Promise.all([
    readFile(`/proc/${pid}/status`, 'utf8'),
    readFile(`/proc/${pid}/smaps`, 'utf8'),
  ]);
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return {
    rssAnonBytes: kib('RssAnon'),
    rssFileBytes: kib('RssFile'),
    mainArenaBytes: residentOfMapping(smaps, '[heap]'),
    threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? NaN),
  };
}

/** The Rss of the mappings named `name` in an smaps listing, in bytes. */
function residentOfMapping(smaps: string, name: string): number {
  let bytes = 0;
  let inMapping = false;
  for (const line of smaps.split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inMapping = line.trimEnd().endsWith(` ${name}`);
    else if (inMapping && line.startsWith('Rss:')) bytes += Number(/(\d+) kB/.exec(line)?.[1] ?? 0) * 1024;
  }
  return bytes;
}

/** The V8 heap spaces the soak follows, by the `space` label prom-client gives them. */
export const HEAP_SPACES = ['new', 'old', 'code', 'large_object', 'new_large_object'] as const;
export type HeapSpace = (typeof HEAP_SPACES)[number];

/** The committed size of each heap space (`nodejs_heap_space_size_total_bytes`), in bytes. */
export function heapSpaceSizes(metrics: readonly MetricSample[], prefix: string): Record<HeapSpace, number> {
  const sizeOf = (space: string) =>
    metrics.find(
      (sample) =>
        sample.name === `${prefix}nodejs_heap_space_size_total_bytes` && sample.labels.space === space,
    )?.value ?? NaN;
  return Object.fromEntries(HEAP_SPACES.map((space) => [space, sizeOf(space)])) as Record<HeapSpace, number>;
}
