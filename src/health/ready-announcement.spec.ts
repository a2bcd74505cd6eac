import pino from 'pino';
import { MemoryStateStore } from '../store/memory-state-store';
import { announceWhenReady } from './ready-announcement';
import { Readiness } from './readiness';

/** A pino logger whose lines are kept as parsed objects. */
function recordingLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ base: null }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('announceWhenReady', () => {
  it('logs one line, the first time readiness holds, with the books live of an ingest', async () => {
    const readiness = new Readiness();
    let notLive = ['btc_usdt', 'eth_btc'];
    readiness.register({
      name: 'ingest',
      check: () => ({ ready: notLive.length === 0, listed: 3, instruments: 3, notLive }),
    });
    const { logger, lines } = recordingLogger();
    const stop = announceWhenReady({
      readiness,
      store: new MemoryStateStore(),
      logger,
      role: 'ingest',
      url: 'http://127.0.0.1:3000',
      intervalMs: 5,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines).toEqual([]);
    notLive = [];
    await until(() => lines.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    expect(lines).toEqual([
      expect.objectContaining({
        role: 'ingest',
        markets: 3,
        booksLive: 3,
        startupMs: expect.any(Number),
        url: 'http://127.0.0.1:3000',
        msg: expect.stringMatching(
          /^ready: 3 books live of 3 listed markets, \d+ ms after start, on http:\/\/127\.0\.0\.1:3000$/,
        ),
      }),
    ]);
  });

  it('gives an api replica its listed markets and no book count', async () => {
    const readiness = new Readiness();
    readiness.register({ name: 'api', check: () => ({ ready: true, markets: 9 }) });
    const { logger, lines } = recordingLogger();
    announceWhenReady({ readiness, store: new MemoryStateStore(), logger, role: 'api', url: 'http://h:1' });
    await until(() => lines.length > 0);
    expect(lines[0]).toMatchObject({ role: 'api', markets: 9, url: 'http://h:1' });
    expect(lines[0]).not.toHaveProperty('booksLive');
  });

  it('says nothing once the process is shutting down', async () => {
    const readiness = new Readiness();
    readiness.shutDown();
    const { logger, lines } = recordingLogger();
    announceWhenReady({
      readiness,
      store: new MemoryStateStore(),
      logger,
      role: 'api',
      url: 'http://h:1',
      intervalMs: 5,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines).toEqual([]);
  });
});
