import { availableParallelism, cpus, totalmem } from 'node:os';

/** The facts a benchmark figure is read against. */
export function describeMachine(): string {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const memoryGiB = (totalmem() / 2 ** 30).toFixed(1);
  return [
    `${availableParallelism()} cores (${model})`,
    `${memoryGiB} GiB memory`,
    `Node ${process.version}`,
    `${process.platform} ${process.arch}`,
  ].join(', ');
}
