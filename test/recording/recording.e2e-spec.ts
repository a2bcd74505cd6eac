import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { RecordedItem } from '../../src/recording/recording-format';
import { RecordingReader } from '../../src/recording/recording-reader';
import { InstrumentHead, StateStore } from '../../src/store/state-store';
import { loadConfig } from '../../src/config/load-config';
import { MarketViews } from '../../src/api/views/market-views';
import { recordingFiles } from '../../src/replay/recording-files';
import { RecordingPlayer } from '../../src/replay/recording-player';
import { RunningApp, startApp } from '../../src/start-app';
import { DATA_FILES } from '../../src/start-config';
import { STATE_STORE } from '../../src/store/store.module';
import { resolveUpstream } from '../../src/upstream/upstream-settings';
import { waitFor } from '../support/fault-run';
import { ensurePagesBuilt, launchBrowser, openPage } from '../support/headless-browser';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { compareWithTruth, expectConverges, readTruth, setFault, setFlow, Truth } from '../support/truth';

const INSTRUMENT = 'btc_usdt';
const BOOK_AT = join(__dirname, '../../dist/replay/book-at-main.js');
const run = promisify(execFile);

/** A moment the sandbox's flow stood still and the gateway held its truth. */
interface Moment {
  readonly at: number;
  readonly truth: Truth;
  readonly head: InstrumentHead;
}

interface BookAtRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function bookAt(dir: string, at: number | string): Promise<BookAtRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [
      BOOK_AT,
      '--dir',
      dir,
      '--instrument',
      INSTRUMENT,
      '--at',
      String(at),
    ]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The market's figures last published in the recording in `dir`, read up to its last flush. */
async function lastPublished(dir: string): Promise<{ stats: unknown } | undefined> {
  let last: RecordedItem | undefined;
  for (const name of readdirSync(dir)
    .filter((entry) => entry.endsWith('.mdg.gz'))
    .sort())
    for await (const item of new RecordingReader(join(dir, name)).items())
      if (item.kind === 'published' && item.instrument === INSTRUMENT) last = item;
  return last && (JSON.parse(last.data) as { stats: unknown });
}

/** An unchanged gateway, state in memory, ingesting from the player as from the exchange. */
async function gatewayOn(player: RecordingPlayer): Promise<RunningApp> {
  const config = loadConfig(
    {
      UPSTREAM_BASE_URL: player.url,
      UPSTREAM_EMAIL: 'operator@example.com',
      UPSTREAM_PASSWORD: 'replayed',
      HOST: '127.0.0.1',
      PORT: '0',
    },
    DATA_FILES,
  );
  return startApp(config, resolveUpstream(config), ['error']);
}

/**
 * A gateway on the sandbox records into a directory while the market moves, its connections are
 * dropped and a version is skipped; then the recording is read back: what it holds, and what
 * `book-at` says the market was at each moment the flow stood still, against the sandbox's truth.
 */
describe('the recording of a run with faults', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdg-recording-'));
  let stack: TestStack;
  const moments: Moment[] = [];
  const items: RecordedItem[] = [];
  let file: string;
  let listed: string[] = [];
  /** Every market's truth when the recording stopped. */
  const finalTruths = new Map<string, Truth>();
  /** What the console said of the last still moment while the process recorded, over HTTP and on its page. */
  const consoleAsked: {
    answer?: unknown;
    shownVersion?: string;
    pageProblems?: string[];
    refusals?: unknown[];
  } = {};

  /** The console's book-at of the last still moment, over HTTP, on the market page, and for questions it refuses. */
  async function askConsole(): Promise<void> {
    const at = new Date(moments.at(-1)!.at).toISOString();
    const ask = (instrument: string, query: string) =>
      fetch(`${stack.app.url}/console/book-at/${instrument}?${query}`);
    // The process writes its file out every second: the moment is whole on disk within one.
    const { version } = moments.at(-1)!.truth;
    await waitFor(
      async () => {
        const answered = await ask(INSTRUMENT, `at=${encodeURIComponent(at)}`);
        const body = (await answered.json()) as { book?: { version: number } };
        consoleAsked.answer = [answered.status, body];
        return body.book?.version === version;
      },
      "the console's answer up to the moment",
      10_000,
    ).catch(() => undefined);
    consoleAsked.refusals = await Promise.all(
      [
        ask(INSTRUMENT, 'at=yesterday'),
        ask(INSTRUMENT, ''),
        ask('nope_nope', `at=${encodeURIComponent(at)}`),
        ask(INSTRUMENT, 'at=0'),
      ].map(async (response) => [
        (await response).status,
        ((await (await response).json()) as { errors: { code: string }[] }).errors[0].code,
      ]),
    );
    ensurePagesBuilt();
    const browser = await launchBrowser();
    try {
      const { page, problems } = await openPage(browser, `${stack.app.url}/console/market/${INSTRUMENT}`, {
        width: 1280,
        height: 900,
      });
      const input = await page.waitForSelector('input[name="at"]');
      await input!.click({ count: 3 });
      await input!.type(at);
      await page.click('form button[type="submit"]');
      const shown = await page.waitForSelector('.book-at dd[data-field="version"]');
      consoleAsked.shownVersion = (await shown!.evaluate((element) => element.textContent)) ?? undefined;
      consoleAsked.pageProblems = problems;
    } finally {
      await browser.close();
      // Chromium may leave a preconnected socket the server would wait on at close.
      stack.app.app.getHttpServer().closeAllConnections();
    }
  }

  async function still(): Promise<void> {
    await expectConverges(stack.sandbox, stack.store, [INSTRUMENT], 20_000);
    const truth = await readTruth(stack.sandbox, INSTRUMENT);
    const head = (await stack.store.readHeads([INSTRUMENT])).get(INSTRUMENT)!;
    // The figures are recorded once the store has taken the write, and on file at the next flush.
    await waitFor(
      async () => isDeepStrictEqual((await lastPublished(dir))?.stats, head.stats),
      'the figures recorded',
      10_000,
    );
    moments.push({ at: Date.now(), truth, head });
  }

  async function flowFor(ms: number): Promise<void> {
    await setFlow(stack.sandbox, 20);
    await new Promise((resolve) => setTimeout(resolve, ms));
  }

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '20' }, app: { RECORD_DIR: dir } });
    await still();
    await flowFor(1_000);
    await setFault(stack.sandbox, 'drop-connections', true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await setFault(stack.sandbox, 'drop-connections', false);
    await waitFor(async () => (await fetch(`${stack.app.url}/health/ready`)).ok, 'ready again', 30_000);
    await flowFor(1_000);
    await still();
    await setFault(stack.sandbox, 'skip-version', true);
    await flowFor(1_500);
    await setFault(stack.sandbox, 'skip-version', false);
    await flowFor(500);
    await still();
    await askConsole();
    listed = stack.app.app
      .get(MarketViews)
      .markets()
      .map((market) => market.instrument);
    for (const instrument of listed) finalTruths.set(instrument, await readTruth(stack.sandbox, instrument));
    await stack.close();
    const files = readdirSync(dir).filter((name) => name.endsWith('.mdg.gz'));
    file = join(dir, files.sort().at(-1)!);
    for (const name of files.sort()) {
      const reader = new RecordingReader(join(dir, name));
      for await (const item of reader.items()) items.push(item);
      expect([reader.problems, reader.cutAfterLine]).toEqual([[], undefined]);
    }
  }, 150_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("holds the hub's items, the gateway's frames and the REST answers as they came, and no session", () => {
    const kinds = new Set(items.map((item) => item.kind));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['frame', 'gap', 'hub', 'published', 'rest']));
    expect(items.some((item) => item.kind === 'hub' && item.instrument === INSTRUMENT)).toBe(true);
    expect(items.some((item) => item.source === '/frontoffice/api/info')).toBe(true);
    expect(items.some((item) => item.kind === 'frame' && item.data.includes('"n":"SubscribeTrades"'))).toBe(
      true,
    );
    for (let index = 1; index < items.length; index++)
      expect(items[index].at).toBeGreaterThanOrEqual(items[index - 1].at);
    const text = items.map((item) => item.data).join('\n');
    expect(text).not.toMatch(/SessionToken|WebAuthenticateUser/);
  });

  it('marks each feed down when its connection dropped and up when it came back, and down at the end', () => {
    // A file that opens while a feed is down marks it down again after its checkpoint.
    const checkpoints = new Set(items.filter((item) => item.kind === 'checkpoint').map((item) => item.at));
    for (const feed of ['hub', 'gateway']) {
      const marks = items
        .filter((item) => item.kind === 'gap' && item.source === feed && !checkpoints.has(item.at))
        .map((item) => item.data);
      expect([feed, marks]).toEqual([feed, ['up', 'down', 'up', 'down']]);
    }
  });

  it('book-at each still moment is the truth: the book, its newest trades, and the figures published', async () => {
    expect(moments).toHaveLength(3);
    for (const moment of moments) {
      const answer = await bookAt(dir, new Date(moment.at).toISOString());
      expect([answer.code, answer.stderr]).toEqual([0, '']);
      const shown = JSON.parse(answer.stdout) as {
        book: { version: number; state: string; bids: string[][]; asks: string[][] };
        trades: { id: string; price: string; amount: string; time: number }[];
        published: { figures: { stats: unknown; lastTrade: unknown } };
      };
      expect(shown.book).toEqual({
        version: moment.truth.version,
        state: 'live',
        bids: moment.truth.bids,
        asks: moment.truth.asks,
      });
      const newest = [...moment.truth.trades]
        .sort((a, b) => b.time - a.time || Number(b.id) - Number(a.id))
        .slice(0, shown.trades.length)
        .map(({ id, price, amount, time }) => ({ id, price, amount, time }));
      expect(shown.trades.length).toBeGreaterThan(0);
      expect(shown.trades.map(({ id, price, amount, time }) => ({ id, price, amount, time }))).toEqual(
        newest,
      );
      expect(shown.published.figures).toMatchObject({
        stats: moment.head.stats,
        lastTrade: moment.head.lastTrade,
      });
    }
  });

  it("the console asks the process's own recording the same, over HTTP and on the market page", () => {
    const moment = moments.at(-1)!;
    const [status, answer] = consoleAsked.answer as [number, { book: unknown; trades: unknown[] }];
    expect(status).toBe(200);
    expect(answer.book).toEqual({
      version: moment.truth.version,
      state: 'live',
      bids: moment.truth.bids,
      asks: moment.truth.asks,
    });
    expect(answer.trades.length).toBeGreaterThan(0);
    expect(consoleAsked.shownVersion).toBe(`${moment.truth.version} (live)`);
    expect(consoleAsked.pageProblems).toEqual([]);
    expect(consoleAsked.refusals).toEqual([
      [400, 'invalid_at'],
      [400, 'invalid_at'],
      [404, 'not_recorded'],
      [404, 'not_recorded'],
    ]);
  });

  it('book-at during the dropped connections names both gaps, over, and the end of the run, open', async () => {
    const down = items.find((item) => item.kind === 'gap' && item.data === 'down')!;
    const answer = JSON.parse((await bookAt(dir, down.at)).stdout) as {
      gaps: { feed: string; from: string; to?: string }[];
    };
    const around = answer.gaps.filter(
      (gap) => Date.parse(gap.from) <= down.at + 1_000 && gap.to !== undefined,
    );
    expect(around.map((gap) => gap.feed).sort()).toEqual(['gateway', 'hub']);
    for (const gap of around) expect(Date.parse(gap.to!)).toBeGreaterThanOrEqual(down.at);
    expect(
      answer.gaps
        .filter((gap) => gap.to === undefined)
        .map((gap) => gap.feed)
        .sort(),
    ).toEqual(['gateway', 'hub']);
  });

  it('played at full speed into a fresh gateway, ends with every book equal to the truth at the end', async () => {
    const { files } = await recordingFiles(dir);
    const player = await RecordingPlayer.start({
      files,
      speed: Infinity,
      host: '127.0.0.1',
      port: 0,
      report: () => undefined,
    });
    const gateway = await gatewayOn(player);
    try {
      const store = gateway.app.get<StateStore>(STATE_STORE);
      expect(listed.length).toBeGreaterThan(1);
      await waitFor(
        async () => {
          for (const instrument of listed) {
            const comparison = await compareWithTruth(
              store,
              finalTruths.get(instrument)!,
              instrument,
              Date.now(),
              {
                trades: false,
              },
            );
            if (!comparison.matches) return false;
          }
          return true;
        },
        'every replayed book equal to the truth at the end',
        30_000,
      );
      expect((await player.ended).records).toBe(items.length);
    } finally {
      await gateway.close();
      await player.close();
    }
  });

  it('played from one still moment to the next at 20 times its pace, stops there and serves that market', async () => {
    const [first, second] = moments;
    const between = items.filter((item) => item.at >= first.at && item.at <= second.at);
    const speed = 20;
    const { files } = await recordingFiles(dir);
    const started = performance.now();
    const player = await RecordingPlayer.start({
      files,
      speed,
      from: first.at,
      to: second.at,
      host: '127.0.0.1',
      port: 0,
      report: () => undefined,
    });
    const gateway = await gatewayOn(player);
    try {
      expect((await player.ended).records).toBe(between.length);
      // Paced: the last record goes out no sooner than the recorded span over the speed.
      const span = between.at(-1)!.at - between[0].at;
      expect(performance.now() - started).toBeGreaterThanOrEqual(span / speed);
      const store = gateway.app.get<StateStore>(STATE_STORE);
      await waitFor(
        async () =>
          (await compareWithTruth(store, second.truth, INSTRUMENT, Date.now(), { trades: false })).matches,
        'the market as it was at the second still moment',
        30_000,
      );
    } finally {
      await gateway.close();
      await player.close();
    }
  });

  it('reads a file cut short, a damaged line and an unknown format, and says where each is', async () => {
    const damaged = join(dir, 'damaged');
    mkdirSync(damaged);
    const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
    // A damaged line among the records, and the file cut in its last compressed block.
    lines.splice(3, 0, '{"at":');
    const whole = gzipSync(lines.join('\n'));
    writeFileSync(join(damaged, 'cut-20260101T000000.000Z.mdg.gz'), whole.subarray(0, whole.length - 40));
    writeFileSync(
      join(damaged, 'other-20260101T000000.000Z.mdg.gz'),
      gzipSync('{"format":"mdg-recording/9"}\n'),
    );
    const answer = await bookAt(damaged, moments[0].at);
    expect(answer.code).toBe(0);
    expect(answer.stderr).toContain('line 4: not JSON');
    expect(answer.stderr).toMatch(/cut short after line \d+; read up to there/);
    expect(answer.stderr).toContain('unknown recording format "mdg-recording/9"');
    expect((JSON.parse(answer.stdout) as { book: { version: number } }).book.version).toBe(
      moments[0].truth.version,
    );
  });

  it('says what is wrong with a question it cannot answer', async () => {
    expect(await bookAt(dir, 'yesterday')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--at must be an ISO 8601 time'),
    });
    expect(await bookAt(dir, 1_000)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('the recording starts at'),
    });
    expect(await bookAt(join(dir, 'nowhere'), 1_000)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('nowhere'),
    });
  });
});
