import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'puppeteer-core';
import { expectOk, PrivateRestClient, Side } from 'sandbox-exchange';
import { canonicalDecimal } from '../../src/market/decimal';
import { formatUnits } from '../../src/market/fixed-point';
import { cellText, ensurePagesBuilt, launchBrowser, openPage, waitFor } from '../support/headless-browser';
import { feedFrame } from '../support/feed-frames';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, setFault } from '../support/truth';

const INSTRUMENT = 'btc_usdt';
const MARKET = 'BTC_USDT';
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const DOCS = join(__dirname, '..', '..', 'docs');

describe('the operator console and the status page, in a real Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let listed: string[];

  beforeAll(async () => {
    ensurePagesBuilt();
    browser = await launchBrowser();
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '0', SANDBOX_RATE_LIMITS: 'false' },
      redis: false,
    });
    await expectConverges(stack.sandbox, stack.store, [INSTRUMENT], 15_000);
    listed = Object.keys((await (await fetch(`${stack.app.url}/summary`)).json()) as object).sort();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    // Chromium may leave behind a socket it opened ahead of a request (a preconnect) and never
    // used: the server would wait for its request timeout before it closes.
    stack?.app.app.getHttpServer().closeAllConnections();
    await stack?.close();
  });

  const open = (path: string) => openPage(browser, `${stack.app.url}${path}`, { width: 1600, height: 900 });

  /** The sandbox's banner is on the page and visible. */
  const bannerShown = (page: Page) =>
    page.$eval(
      '.sandbox-banner',
      (banner) =>
        !(banner as unknown as { hidden: boolean }).hidden && banner.textContent!.includes('simulated'),
    );

  const rowsOf = (page: Page) =>
    page.$$eval('tr[data-market]', (rows) => rows.map((row) => row.getAttribute('data-market')!).sort());

  it('loads the console with no console error, a row for every listed market', async () => {
    const { page, problems } = await open('/console');
    await waitFor('a row per market', 10_000, async () => (await rowsOf(page)).length === listed.length);
    expect(await rowsOf(page)).toEqual(listed);
    expect(await cellText(page, MARKET, 'syncState')).toBe('live');
    expect(await bannerShown(page)).toBe(true);
    // Served with the policy that allows the gateway's own scripts only, and it runs under it.
    const response = await fetch(`${stack.app.url}/console`);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    await page.waitForSelector('.chart canvas', { timeout: 15_000 });
    // The REST budget this process draws on alone (no Redis to share it through).
    await page.waitForSelector('tr[data-budget="marketdata"]', { timeout: 10_000 });
    const budget = await page.$$eval('tr[data-budget]', (rows) => rows.map((row) => row.textContent ?? ''));
    expect(budget).toHaveLength(2);
    expect(budget.join('\n')).toMatch(/\/frontoffice\/\d+ of 1 a second in use\d+ waitingthis replica alone/);
    expect(budget.join('\n')).toMatch(/\/marketdata\/\d+ of 2 a second in use\d+ waitingthis replica alone/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a trade the sandbox made, as the last price and one more trade', async () => {
    const { page, problems } = await open('/console');
    await waitFor(
      'the market row',
      10_000,
      async () => (await cellText(page, MARKET, 'trades24h')) !== undefined,
    );
    const tradesBefore = Number(await cellText(page, MARKET, 'trades24h'));
    const client = new PrivateRestClient(stack.sandbox.baseUrl);
    const market = stack.sandbox.exchange.market(INSTRUMENT)!;
    const bid = market.bestPrice(Side.Buy)!;
    const ask = market.bestPrice(Side.Sell)!;
    // Inside the spread, at a price no other order has: the trade's price is the new last price.
    const price = formatUnits(bid + (ask - bid) / 2n, market.spec.priceScale);
    const amount = '0.0375';
    await client.placed({ instrument: INSTRUMENT, type: 'sell', amount, price, isLimit: true });
    const taker = await client.placed({ instrument: INSTRUMENT, type: 'buy', amount, price, isLimit: true });
    expect(taker.status).toBe('Completed');
    const [trade] = expectOk(await client.tradeHistory({ orderId: taker.orderId })).data;
    expect(trade).toMatchObject({ executionPrice: price });
    await waitFor('the trade on the page', 10_000, async () => {
      const shown = await cellText(page, MARKET, 'lastPrice');
      return shown !== undefined && shown !== '—' && canonicalDecimal(shown) === canonicalDecimal(price);
    });
    expect(Number(await cellText(page, MARKET, 'trades24h'))).toBeGreaterThan(tradesBefore);

    // The market's own page lists it among its trades and draws its depth.
    await page.goto(`${stack.app.url}/console/market/${INSTRUMENT}`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector(`tr[data-trade="${trade.tradeSeq}"]`, { timeout: 5_000 });
    await page.waitForSelector('.chart canvas', { timeout: 5_000 });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('turns a market to re-synchronising on a dropped connection, and back to live', async () => {
    const { page, problems } = await open('/console');
    await waitFor(
      'the market live',
      10_000,
      async () => (await cellText(page, MARKET, 'syncState')) === 'live',
    );
    await setFault(stack.sandbox, 'drop-connections', true);
    try {
      await waitFor(
        're-synchronising',
        15_000,
        async () => (await cellText(page, MARKET, 'syncState')) === 're-synchronising',
      );
    } finally {
      await setFault(stack.sandbox, 'drop-connections', false);
    }
    await waitFor('live again', 30_000, async () => (await cellText(page, MARKET, 'syncState')) === 'live');
    // Every connection back (the trade feed's too), so that the suite ends on a settled gateway.
    await waitFor('ready again', 30_000, async () => (await fetch(`${stack.app.url}/health/ready`)).ok);
    // The observer notes the events as it follows the books: they may come an update after the table.
    const events = () => page.$$eval('.events li', (items) => items.map((item) => item.textContent ?? ''));
    await waitFor('both events listed', 10_000, async () => {
      const shown = await events();
      return (
        shown.some((text) => text.includes(`${MARKET}: book re-synchronising`)) &&
        shown.some((text) => text.includes(`${MARKET}: book live again`))
      );
    });
    const connectionStates = () =>
      page.$$eval('tr[data-connection] td', (cells) => cells.map((cell) => cell.textContent ?? ''));
    await waitFor('connections shown connected', 10_000, async () =>
      (await connectionStates()).every((state) => state === 'connected'),
    );
    if (SCREENSHOTS) {
      // The picture of the console in docs/console.md: settled, the fault's events listed, a few chart points.
      await sleep(35_000);
      await page.screenshot({ path: join(DOCS, 'console.png'), fullPage: true });
    }
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it.each(['/console', '/status', `/console/market/${INSTRUMENT}`])(
    'fits %s on a phone: nothing wider than the screen but the tables, which scroll',
    async (path) => {
      const { page, problems } = await open(path);
      await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
      await page.waitForSelector(path.includes('/market/') ? '.figures dt' : 'tr[data-market]', {
        timeout: 10_000,
      });
      const overflow = await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(overflow).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it('shows nothing internal on the public status page', async () => {
    const { page, problems } = await open('/status');
    await waitFor('a row per market', 10_000, async () => (await rowsOf(page)).length === listed.length);
    await page.waitForSelector('.events li', { timeout: 5_000 });
    expect(await cellText(page, MARKET, 'state')).toBe('live');
    expect(await bannerShown(page)).toBe(true);
    const text = await page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);
    const console = await (await fetch(`${stack.app.url}/console/market-data/${INSTRUMENT}`)).json();
    const internals = [
      'replica',
      'version',
      'ingest',
      'lease',
      'upstream',
      'hub',
      'gateway',
      'flag',
      'spread',
      'depth',
      're-synchronising',
      String((console as { version: number }).version),
    ];
    for (const word of internals) expect(text.toLowerCase()).not.toContain(word);
    // The feed carries no more than the page shows.
    const frame = await feedFrame(`${stack.app.url}/status/feed`);
    expect(Object.keys(frame).sort()).toEqual(['generatedAt', 'incidents', 'markets', 'sandbox', 'view']);
    for (const market of frame.markets as object[])
      expect(Object.keys(market).sort()).toEqual(['dataAgeMs', 'market', 'state']);
    for (const incident of frame.incidents as object[])
      expect(Object.keys(incident).sort()).toEqual(['at', 'market', 'message']);
    if (SCREENSHOTS) await page.screenshot({ path: join(DOCS, 'status.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});
