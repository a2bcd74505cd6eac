import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayRun, runGateway } from '../ops/support/gateway-run';
import { waitFor } from '../support/fault-run';
import { readMetrics, sampleValue } from '../support/metrics-text';
import { startTestStack, TestStack } from '../support/start-test-stack';

jest.setTimeout(120_000);

const GOOD = {
  BTC: {
    name: 'Bitcoin',
    unified_cryptoasset_id: 1,
    can_withdraw: true,
    min_withdraw: '0.0005',
    max_withdraw: '50',
    maker_fee: '0.001',
    taker_fee: 0.002,
  },
  usdt: { name: 'Tether USD', unified_cryptoasset_id: '825', min_withdraw: 10 },
};

type Json = Record<string, Record<string, unknown>>;

describe('ASSETS_FILE at runtime: served, then missing, invalid and back (sandbox in-process)', () => {
  let directory: string;
  let path: string;
  let stack: TestStack;
  const warnings: string[] = [];
  const notes: string[] = [];

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'mdg-assets-'));
    path = join(directory, 'assets.json');
    writeFileSync(path, JSON.stringify(GOOD));
    const record = (lines: string[]) => (message: unknown) => {
      if (String(message).startsWith('catalogue input assets_file')) lines.push(String(message));
    };
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(record(warnings));
    jest.spyOn(Logger.prototype, 'log').mockImplementation(record(notes));
    stack = await startTestStack({
      redis: false,
      sandbox: { SANDBOX_FLOW_RATE: '0' },
      app: { ASSETS_FILE: path },
      tuning: { catalogRefreshMs: 1000 },
    });
    await waitFor(
      async () => (await fetch(`${stack.app.url}/asset`)).status === 200,
      '/asset served',
      60_000,
    );
    // A market is in /cmc/ticker once its last trade is known.
    await waitFor(
      async () => {
        const ticker = (await (await fetch(`${stack.app.url}/cmc/ticker`)).json()) as Json;
        return ['BTC_USDT', 'ETH_USDT', 'ETH_BTC'].every((pair) => pair in ticker);
      },
      'the last trades of BTC_USDT, ETH_USDT and ETH_BTC',
      60_000,
    );
  });
  afterAll(async () => {
    await stack?.close();
    jest.restoreAllMocks();
    rmSync(directory, { recursive: true, force: true });
  });

  const get = async (route: string): Promise<Json> =>
    (await fetch(`${stack.app.url}${route}`)).json() as Promise<Json>;
  /** The ingest's readiness report of the assets file; the check answers 200 or 503 by the books. */
  const fileHealth = async () => ((await get('/health/ready')).ingest.catalogInputs as Json).assets_file;
  const fileOk = async () =>
    sampleValue(await readMetrics(stack.app.url), 'mdg_catalog_input_ok', { input: 'assets_file' });
  /** Resolves once the catalogue was refreshed `count` more times. */
  const refreshes = async (count: number) => {
    const seen = new Set([(await stack.store.readCatalog())?.refreshedAt]);
    await waitFor(
      async () => seen.add((await stack.store.readCatalog())?.refreshedAt).size > count,
      `${count} catalogue refreshes`,
      30_000,
    );
  };

  it("serves the file's names, CoinMarketCap ids and fees, and leaves out what it does not state", async () => {
    const [asset, cmcAssets, cmcTicker] = await Promise.all([
      get('/asset'),
      get('/cmc/assets'),
      get('/cmc/ticker'),
    ]);
    expect(asset.BTC).toEqual({
      name: 'Bitcoin',
      can_withdraw: true,
      min_withdraw: '0.0005',
      max_withdraw: '50',
    });
    expect(asset.ETH).toEqual({ name: 'ETH' });
    expect(cmcAssets.BTC).toEqual({
      name: 'Bitcoin',
      unified_cryptoasset_id: 1,
      can_withdraw: true,
      min_withdraw: '0.0005',
      max_withdraw: '50',
      maker_fee: '0.001',
      taker_fee: '0.002',
    });
    expect(cmcAssets.USDT).toEqual({ name: 'Tether USD', unified_cryptoasset_id: 825, min_withdraw: '10' });
    expect(cmcAssets.ETH).toEqual({ name: 'ETH' });
    expect(cmcTicker.BTC_USDT).toMatchObject({ base_id: 1, quote_id: 825 });
    expect(cmcTicker.ETH_USDT).toMatchObject({ quote_id: 825 });
    expect(cmcTicker.ETH_USDT).not.toHaveProperty('base_id');
    expect(cmcTicker.ETH_BTC).toMatchObject({ quote_id: 1 });
    expect(await fileHealth()).toMatchObject({ ok: true });
    expect(await fileOk()).toBe(1);
  });

  it('keeps the last good file while it is missing, names the cause, and logs it once', async () => {
    unlinkSync(path);
    await waitFor(async () => (await fileHealth()).ok === false, 'the missing file reported', 30_000);
    await refreshes(2);
    expect(await fileHealth()).toMatchObject({
      ok: false,
      problem: `ASSETS_FILE ${path}: cannot be read: ENOENT`,
      keeping: expect.stringMatching(/^version of \d{4}-/),
    });
    expect(await fileOk()).toBe(0);
    expect((await get('/asset')).BTC.name).toBe('Bitcoin');
    expect((await get('/cmc/assets')).USDT).toMatchObject({ unified_cryptoasset_id: 825 });
    expect(warnings).toEqual([expect.stringContaining('cannot be read: ENOENT')]);
  });

  it('keeps it while the file is invalid, and logs the new cause once', async () => {
    writeFileSync(path, '{"BTC":{"name":"Bitcoin","maker_fee":"0.1%"}');
    await waitFor(
      async () => String((await fileHealth()).problem).includes('not valid JSON'),
      'the invalid file reported',
      30_000,
    );
    await refreshes(2);
    expect((await get('/asset')).BTC.name).toBe('Bitcoin');
    expect(await fileOk()).toBe(0);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain('not valid JSON');
    expect(notes).toEqual([]);
  });

  it('uses the file again once it is good, with one line saying so', async () => {
    writeFileSync(path, JSON.stringify({ ...GOOD, BTC: { ...GOOD.BTC, name: 'Bitcoin (fixed)' } }));
    await waitFor(
      async () => (await get('/asset')).BTC.name === 'Bitcoin (fixed)',
      'the new name served',
      30_000,
    );
    expect(await fileHealth()).toMatchObject({ ok: true });
    expect(await fileOk()).toBe(1);
    expect(notes).toEqual(['catalogue input assets_file is read well again']);
    expect(warnings).toHaveLength(2);
  });
});

describe('ASSETS_FILE at boot (real build)', () => {
  let directory: string;
  const runs: GatewayRun[] = [];

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'mdg-assets-boot-'));
  });
  afterAll(async () => {
    await Promise.all(runs.map((run) => run.kill()));
    rmSync(directory, { recursive: true, force: true });
  });

  /** Starts the build with `env`, waits for it to exit, and gives its status and fatal lines. */
  async function boot(env: Record<string, string>) {
    const run = await runGateway({ SANDBOX: 'true', ...env });
    runs.push(run);
    const status = await run.exit;
    const lines = run
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: string; msg: string; problems?: string[] });
    return { status, lines };
  }

  it('refuses to start with a missing file, in the one configuration error', async () => {
    const missing = join(directory, 'missing.json');
    const { status, lines } = await boot({ ASSETS_FILE: missing, PORT: 'eighty' });
    expect(status).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0].level).toBe('fatal');
    expect(lines[0].problems).toEqual([
      expect.stringMatching(/^PORT="eighty"/),
      `ASSETS_FILE=${JSON.stringify(missing)}: cannot be read: ENOENT`,
    ]);
    expect(lines[0].msg).toContain(`ASSETS_FILE=${JSON.stringify(missing)}: cannot be read: ENOENT`);
  });

  it('refuses to start with a file that is not JSON or breaks its rules', async () => {
    const broken = join(directory, 'broken.json');
    writeFileSync(broken, '{"BTC":{"unified_cryptoasset_id":0,"taker_fee":"3"},"ETH":');
    let { status, lines } = await boot({ ASSETS_FILE: broken });
    expect(status).toBe(1);
    expect(lines.map((line) => line.level)).toEqual(['fatal']);
    expect(lines[0].problems).toEqual([
      expect.stringMatching(/^ASSETS_FILE=".*broken\.json": not valid JSON/),
    ]);

    writeFileSync(broken, '{"BTC":{"unified_cryptoasset_id":0,"taker_fee":"3"}}');
    ({ status, lines } = await boot({ ASSETS_FILE: broken }));
    expect(status).toBe(1);
    expect(lines[0].problems).toEqual([
      expect.stringMatching(/: BTC\.unified_cryptoasset_id: must be a positive integer/),
      expect.stringMatching(/: BTC\.taker_fee: a fee is a fraction of the traded value/),
    ]);
  });
});
