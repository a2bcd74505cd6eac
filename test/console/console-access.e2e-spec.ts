import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { ensurePagesBuilt, launchBrowser, pageProblems, waitFor } from '../support/headless-browser';
import { loadConfig } from '../../src/config/load-config';
import { DATA_FILES } from '../../src/start-config';
import { startApp } from '../../src/start-app';
import { resolveUpstream } from '../../src/upstream/upstream-settings';
import { startTestSandbox } from '../support/start-test-sandbox';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { StreamClient } from '../support/stream-client';

/** An address of the allowed range, as a trusted proxy would name the client. */
const ALLOWED_CLIENT = '203.0.113.9';

describe('the console on a port of its own, for the addresses allowed', () => {
  let stack: TestStack;
  let consoleUrl: string;
  let script: string;

  beforeAll(async () => {
    ensurePagesBuilt();
    stack = await startTestStack({
      redis: false,
      app: { CONSOLE_PORT: '0', CONSOLE_ALLOW: '203.0.113.0/24', TRUST_PROXY: 'true' },
    });
    expect(stack.app.consolePort).toEqual(expect.any(Number));
    expect(stack.app.consolePort).not.toBe(stack.app.port);
    consoleUrl = `http://127.0.0.1:${stack.app.consolePort}`;
    await waitFor('the listing loaded', 15_000, async () => (await fetch(`${stack.app.url}/summary`)).ok);
    const html = await (await fetch(`${stack.app.url}/status`)).text();
    script = /src="([^"]+\.js)"/.exec(html)![1];
  }, 30_000);

  afterAll(async () => {
    await stack?.close();
  });

  const get = (url: string, client?: string) =>
    fetch(url, { headers: client ? { 'x-forwarded-for': client } : {} });

  it('is not served on the API port, where the status page and the listing stay', async () => {
    expect((await get(`${stack.app.url}/console`, ALLOWED_CLIENT)).status).toBe(404);
    expect((await get(`${stack.app.url}/console/feed`, ALLOWED_CLIENT)).status).toBe(404);
    expect((await get(`${stack.app.url}/status`)).status).toBe(200);
    expect((await get(`${stack.app.url}${script}`)).status).toBe(200);
    expect((await get(`${stack.app.url}/summary`)).status).toBe(200);
  });

  it('refuses an address outside CONSOLE_ALLOW with 403 on its port', async () => {
    const refused = await get(`${consoleUrl}/console`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ errors: [{ code: 'forbidden', message: expect.any(String) }] });
    expect((await get(`${consoleUrl}/console/market-data/btc_usdt`, '198.51.100.1')).status).toBe(403);
  });

  it('answers an allowed address on its port, which serves nothing else', async () => {
    expect((await get(`${consoleUrl}/console`, ALLOWED_CLIENT)).status).toBe(200);
    expect((await get(`${consoleUrl}${script}`)).status).toBe(200);
    expect((await get(`${consoleUrl}/summary`, ALLOWED_CLIENT)).status).toBe(404);
    expect((await get(`${consoleUrl}/status`, ALLOWED_CLIENT)).status).toBe(404);
  });

  it("serves its candle chart's history and stream on its port", async () => {
    const now = Math.floor(Date.now() / 1000);
    const history = await get(
      `${consoleUrl}/udf/history?symbol=BTCUSDT&resolution=1&from=${now - 3_600}&to=${now}`,
      ALLOWED_CLIENT,
    );
    expect(history.status).toBe(200);
    expect(((await history.json()) as { s: string }).s).toMatch(/^(ok|no_data)$/);
    expect((await get(`${consoleUrl}/udf/config`, ALLOWED_CLIENT)).status).toBe(404);

    const client = new StreamClient(consoleUrl);
    try {
      await client.opened;
      client.send({ op: 'subscribe', channels: ['candles.btc_usdt.1'] });
      expect(await client.frame((frame) => frame.type === 'subscribed')).toEqual({
        type: 'subscribed',
        channel: 'candles.btc_usdt.1',
      });
    } finally {
      client.close();
    }
  });

  it('works in a browser on its port', async () => {
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      const page = await browser.newPage();
      const problems = pageProblems(page);
      await page.setExtraHTTPHeaders({ 'x-forwarded-for': ALLOWED_CLIENT });
      await page.goto(`${consoleUrl}/console`, { waitUntil: 'domcontentloaded' });
      await waitFor('the market rows', 10_000, async () => (await page.$$('tr[data-market]')).length > 0);
      expect(problems).toEqual([]);
    } finally {
      await browser?.close();
      stack.app.app.getHttpServer().closeAllConnections();
    }
  });
});

describe('a console port in use', () => {
  it('stops the start with an error that names CONSOLE_PORT', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const sandbox = await startTestSandbox();
    try {
      const config = loadConfig(
        { SANDBOX: 'true', HOST: '127.0.0.1', PORT: '0', CONSOLE_PORT: String(port) },
        DATA_FILES,
      );
      await expect(startApp(config, resolveUpstream(config, sandbox), ['error'])).rejects.toMatchObject({
        name: 'ListenFailure',
        setting: 'CONSOLE_PORT',
        code: 'EADDRINUSE',
      });
    } finally {
      taken.close();
      await sandbox.close();
    }
  });
});

describe('the pages switched off', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      redis: false,
      app: { CONSOLE_ENABLED: 'false', STATUS_PAGE_ENABLED: 'false' },
    });
  }, 30_000);

  afterAll(async () => {
    await stack?.close();
  });

  it.each(['/console', '/console/feed', '/status', '/status/feed'])('%s is a 404', async (path) => {
    expect((await fetch(`${stack.app.url}${path}`)).status).toBe(404);
  });
});
