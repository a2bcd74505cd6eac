import type { Browser, Page } from 'puppeteer-core';
import { expectOk, PrivateRestClient, Side } from 'sandbox-exchange';
import { historyBars, UdfHistory } from '../../src/console-page/candle-bars';
import { parseNumbersAsText } from '../../src/console-page/numbers-as-text';
import { canonicalDecimal } from '../../src/market/decimal';
import { formatUnits } from '../../src/market/fixed-point';
import { ensurePagesBuilt, launchBrowser, openPage, waitFor } from '../support/headless-browser';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges } from '../support/truth';

const INSTRUMENT = 'btc_usdt';

/** What the candle panel drew, as it tells on its chart's element, and its legend's figures. */
interface Drawn {
  readonly resolution: string;
  readonly from: string;
  readonly to: string;
  readonly candles: number;
  readonly close: string | undefined;
  readonly volume: string | undefined;
}

describe('the market page’s candle chart, in a real Chromium', () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    ensurePagesBuilt();
    browser = await launchBrowser();
    // No order flow: the only trades are the test's.
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '0', SANDBOX_RATE_LIMITS: 'false' },
      redis: false,
    });
    await expectConverges(stack.sandbox, stack.store, [INSTRUMENT], 15_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    // Chromium may keep a preconnected socket that the server would otherwise wait for.
    stack?.app.app.getHttpServer().closeAllConnections();
    await stack?.close();
  });

  const drawn = (page: Page): Promise<Drawn | undefined> =>
    page.$$eval('.candles', (panels) => {
      const area = panels[0]?.querySelector('.candle-area[data-candles]');
      if (!area) return undefined;
      const data = (name: string) => area.getAttribute(`data-${name}`)!;
      const legend = (field: string) =>
        panels[0].querySelector(`.candle-legend [data-field="${field}"]`)?.textContent ?? undefined;
      return {
        resolution: data('resolution'),
        from: data('from'),
        to: data('to'),
        candles: Number(data('candles')),
        close: legend('close'),
        volume: legend('volume'),
      };
    });

  /** The bars `/udf/history` gives for the range the page asked for, up to `to` (exclusive). */
  const history = async (shown: Drawn, to = shown.to) => {
    const query = new URLSearchParams({
      symbol: INSTRUMENT,
      resolution: shown.resolution,
      from: shown.from,
      to,
    });
    const response = await fetch(`${stack.app.url}/udf/history?${query}`);
    expect(response.status).toBe(200);
    return historyBars(parseNumbersAsText(await response.text()) as UdfHistory);
  };

  /** A trade inside the spread at a price no order has: the newest bar's close. */
  async function trade(): Promise<string> {
    const client = new PrivateRestClient(stack.sandbox.baseUrl);
    const market = stack.sandbox.exchange.market(INSTRUMENT)!;
    const bid = market.bestPrice(Side.Buy)!;
    const ask = market.bestPrice(Side.Sell)!;
    const price = formatUnits(bid + (ask - bid) / 2n, market.spec.priceScale);
    const amount = '0.0125';
    await client.placed({ instrument: INSTRUMENT, type: 'sell', amount, price, isLimit: true });
    const taker = await client.placed({ instrument: INSTRUMENT, type: 'buy', amount, price, isLimit: true });
    expect(taker.status).toBe('Completed');
    expect(expectOk(await client.tradeHistory({ orderId: taker.orderId })).data[0]).toMatchObject({
      executionPrice: price,
    });
    return price;
  }

  it('draws the bars /udf/history gives, then follows a new trade into the last candle', async () => {
    const { page, problems } = await open();
    await page.waitForSelector('.candle-area canvas', { timeout: 15_000 });
    await waitFor('the first bars drawn', 15_000, async () => (await drawn(page)) !== undefined);
    const first = (await drawn(page))!;
    expect(first.resolution).toBe('1');
    const bars = await history(first);
    expect(first.candles).toBe(bars.length);
    expect(first.close).toBe(bars.at(-1)?.close);

    const price = await trade();
    // The candle of the trade's minute closes at its price, with its volume; every candle as
    // /udf/history has it for the same range, up to now.
    const untilNow = () => String(Math.floor(Date.now() / 1_000) + 1);
    await waitFor('the trade in the last candle', 15_000, async () => {
      const shown = await drawn(page);
      const newest = (await history(first, untilNow())).at(-1);
      return (
        shown !== undefined &&
        newest !== undefined &&
        canonicalDecimal(newest.close) === canonicalDecimal(price) &&
        shown.close === newest.close &&
        shown.volume === newest.volume
      );
    });
    const after = (await drawn(page))!;
    const barsAfter = await history(after, untilNow());
    expect(after).toMatchObject({ from: first.from, to: first.to, candles: barsAfter.length });
    expect(canonicalDecimal(after.close!)).toBe(canonicalDecimal(price));
    expect([bars.length, bars.length + 1]).toContain(after.candles);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('switches resolution: the 1-hour bars of its own range', async () => {
    const { page, problems } = await open();
    await waitFor('the first bars drawn', 15_000, async () => (await drawn(page)) !== undefined);
    await page.click('.resolutions button[data-resolution="60"]');
    // The chart's element drops its count while the bars of another resolution load.
    await waitFor('the hourly bars', 15_000, async () => (await drawn(page))?.resolution === '60');
    const shown = (await drawn(page))!;
    expect(Number(shown.to) - Number(shown.from)).toBe(1_440 * 3_600);
    expect(shown.candles).toBe((await history(shown)).length);
    expect(
      await page.$$eval('.resolutions button.active', (active) => active.map((b) => b.textContent)),
    ).toEqual(['1h']);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  const open = () =>
    openPage(browser, `${stack.app.url}/console/market/${INSTRUMENT}`, { width: 1280, height: 900 });
});
