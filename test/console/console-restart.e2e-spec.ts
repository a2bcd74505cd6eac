import type { Browser } from 'puppeteer-core';
import { RunningSandbox } from 'sandbox-exchange';
import { loadConfig } from '../../src/config/load-config';
import { DATA_FILES } from '../../src/start-config';
import { RunningApp, startApp } from '../../src/start-app';
import { resolveUpstream } from '../../src/upstream/upstream-settings';
import { ensurePagesBuilt, launchBrowser, pageProblems, waitFor } from '../support/headless-browser';
import { startTestSandbox } from '../support/start-test-sandbox';

async function startGateway(sandbox: RunningSandbox, port: number): Promise<RunningApp> {
  const config = loadConfig({ SANDBOX: 'true', HOST: '127.0.0.1', PORT: String(port) }, DATA_FILES);
  return startApp(config, resolveUpstream(config, sandbox), ['error']);
}

describe('the pages across a restart of the gateway', () => {
  let sandbox: RunningSandbox;
  let browser: Browser;
  let app: RunningApp | undefined;

  beforeAll(async () => {
    ensurePagesBuilt();
    browser = await launchBrowser();
    sandbox = await startTestSandbox();
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    app?.app.getHttpServer().closeAllConnections();
    await app?.close();
    await sandbox?.close();
  });

  it.each(['/console', '/status'])(
    '%s reconnects by itself and goes on',
    async (path) => {
      app = await startGateway(sandbox, 0);
      const { port, url } = app;
      const page = await browser.newPage();
      const problems = pageProblems(page);
      await page.goto(`${url}${path}`, { waitUntil: 'domcontentloaded' });
      const badge = () => page.$eval('header .badge', (element) => element.textContent);
      const snapshots = () => page.$$eval('tr[data-market]', (rows) => rows.length);
      await waitFor('live', 10_000, async () => (await badge()) === 'live' && (await snapshots()) > 0);

      await app.closeHttp();
      await app.close();
      app = undefined;
      await waitFor('the page noticing', 10_000, async () => (await badge()) === 'reconnecting…');

      app = await startGateway(sandbox, port);
      // Rows are drawn afresh from the new process's first snapshot.
      await page.$$eval('tr[data-market]', (rows) => rows.forEach((row) => row.remove()));
      await waitFor('live again', 15_000, async () => (await badge()) === 'live' && (await snapshots()) > 0);
      // The requests the restart cut are expected; nothing else went wrong.
      expect(problems.filter((problem) => !/ERR_CONNECTION_REFUSED|net::ERR_/.test(problem))).toEqual([]);
      await page.close();
      await app.closeHttp();
      await app.close();
      app = undefined;
    },
    60_000,
  );
});
