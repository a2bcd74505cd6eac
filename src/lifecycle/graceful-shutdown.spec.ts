import { createRootLogger } from '../logging/root-logger';
import { installGracefulShutdown } from './graceful-shutdown';

/** SIGUSR2 stands in for SIGTERM, emitted to the listeners only: no real signal reaches the test process. */
const SIGNAL: NodeJS.Signals = 'SIGUSR2';
const signal = (): boolean => process.emit(SIGNAL, SIGNAL);

function setUp(steps: { name: string; run: () => Promise<void> | void }[], timeoutMs = 5_000) {
  const lines: Record<string, unknown>[] = [];
  const logger = createRootLogger('debug', { write: (line: string) => lines.push(JSON.parse(line)) });
  let resolveExit: (code: number) => void;
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  const before = process.listeners(SIGNAL);
  installGracefulShutdown({ steps, timeoutMs, logger, signals: [SIGNAL], exit: (code) => resolveExit(code) });
  const installed = process.listeners(SIGNAL).filter((listener) => !before.includes(listener));
  const remove = () => installed.forEach((listener) => process.removeListener(SIGNAL, listener));
  return { lines, exited, remove };
}

describe('installGracefulShutdown', () => {
  it('runs the steps in order, once, and exits with 0', async () => {
    const order: string[] = [];
    const { exited, remove, lines } = setUp([
      { name: 'ready', run: () => void order.push('ready') },
      {
        name: 'drain',
        run: async () => {
          signal(); // a second signal while the first shutdown runs
          await new Promise((resolve) => setTimeout(resolve, 20));
          order.push('drain');
        },
      },
      { name: 'close', run: () => void order.push('close') },
    ]);
    signal();
    expect(await exited).toBe(0);
    remove();
    expect(order).toEqual(['ready', 'drain', 'close']);
    expect(lines.some((line) => line.msg === 'shutdown already under way; signal ignored')).toBe(true);
  });

  it('runs the remaining steps after a failed one and exits with 1', async () => {
    const order: string[] = [];
    const { exited, remove } = setUp([
      { name: 'drain', run: () => Promise.reject(new Error('nope')) },
      { name: 'close', run: () => void order.push('close') },
    ]);
    signal();
    expect(await exited).toBe(1);
    remove();
    expect(order).toEqual(['close']);
  });

  it('exits with 1 when the steps outlast the timeout', async () => {
    const { exited, remove, lines } = setUp(
      [
        { name: 'drain', run: () => undefined },
        { name: 'hang', run: () => new Promise(() => undefined) },
      ],
      1_000,
    );
    signal();
    expect(await exited).toBe(1);
    remove();
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        step: 'hang',
        msg: 'shutdown did not finish in time (at "hang"); exiting',
      }),
    );
  });
});
