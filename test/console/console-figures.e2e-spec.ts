import type { Browser, Page } from 'puppeteer-core';
import { Fraction, sumOf } from '../support/exact-fraction';
import { feedFrame } from '../support/feed-frames';
import { cellText, ensurePagesBuilt, launchBrowser, openPage, waitFor } from '../support/headless-browser';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges } from '../support/truth';

/** The sandbox's market with 18-decimal prices and amounts, and one with a 2-decimal price scale. */
const PRECISE = 'pepe_eth';
const COARSE = 'btc_usdt';

interface SummaryRecord {
  readonly last: string;
  readonly highestBid: string;
  readonly lowestAsk: string;
  readonly quoteVolume: string;
}

interface MarketRow {
  readonly market: string;
  readonly depthPlus2PercentUsd: string | null;
  readonly depthMinus2PercentUsd: string | null;
  readonly quoteVolume24hUsd: string | null;
}

interface TradeRecord {
  readonly tradeID: string;
  readonly price: string;
  readonly base_volume: string;
}

type Level = [price: string, amount: string];

/** Grouped in thousands by the platform, apart from the page's own code: `1345220.79` → `1,345,220.79`. */
function groupedOracle(text: string): string {
  const [whole, fraction] = text.split('.');
  const grouped = BigInt(whole).toLocaleString('en-US');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** A dollar worth as the page writes its estimate: whole dollars rounded half up, grouped. */
function dollarsOracle(text: string | null): string {
  return text === null ? '—' : `≈ $${groupedOracle(Fraction.parse(text).toFixed(0))}`;
}

/** The exact total of levels' amounts, at the amounts' scale. */
function totalOracle(levels: readonly Level[]): string {
  const scale = levels[0][1].split('.')[1]?.length ?? 0;
  return sumOf(levels.map(([, amount]) => Fraction.parse(amount))).toFixed(scale);
}

describe('the console writes the API’s figures, in a real Chromium at 1280 px', () => {
  let stack: TestStack;
  let browser: Browser;
  let summary: Record<string, SummaryRecord>;
  let listed: string[];

  beforeAll(async () => {
    ensurePagesBuilt();
    browser = await launchBrowser();
    // No order flow: the figures stay as they are while the pages are read.
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '0', SANDBOX_RATE_LIMITS: 'false' },
      redis: false,
    });
    await expectConverges(stack.sandbox, stack.store, [PRECISE, COARSE], 15_000);
    summary = (await (await fetch(`${stack.app.url}/summary`)).json()) as Record<string, SummaryRecord>;
    listed = Object.keys(summary).sort();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    // Chromium may keep a preconnected socket that the server would otherwise wait for.
    stack?.app.app.getHttpServer().closeAllConnections();
    await stack?.close();
  });

  const open = (path: string) => openPage(browser, `${stack.app.url}${path}`, { width: 1280, height: 800 });

  /** Each listed market's cell `field`, keyed by market. */
  async function column(page: Page, field: string): Promise<Record<string, string | undefined>> {
    const cells = await Promise.all(listed.map((market) => cellText(page, market, field)));
    return Object.fromEntries(listed.map((market, at) => [market, cells[at]]));
  }

  /** Waits until `read` gives `expected`, then compares them, so that a failure shows the difference. */
  async function expectShown<T>(what: string, read: () => Promise<T>, expected: T): Promise<void> {
    const same = async () => JSON.stringify(await read()) === JSON.stringify(expected);
    await waitFor(what, 10_000, same).catch(() => undefined);
    expect(await read()).toEqual(expected);
  }

  const figure = (page: Page, field: string) =>
    page.$$eval(`.figures dd[data-field="${field}"]`, (cells) => cells[0]?.textContent ?? undefined);
  const legend = (page: Page) =>
    page.$$eval('.u-legend .u-series', (rows) =>
      rows.map((row) => [
        row.querySelector('.u-label')?.textContent ?? '',
        row.querySelector('.u-value')?.textContent ?? '',
      ]),
    );

  it('writes every last price of the Markets table as /summary does, points lined up', async () => {
    const { page, problems } = await open('/console');
    const expected = Object.fromEntries(listed.map((market) => [market, summary[market].last]));
    await expectShown('the last prices', () => column(page, 'lastPrice'), expected);
    expect(summary[PRECISE.toUpperCase()].last).toMatch(/^0\.\d{18}$/);
    expect(summary[COARSE.toUpperCase()].last).toMatch(/^\d+\.\d{2}$/);
    // Each price's point stands at the same place, whatever its market's scale.
    const points = (await page.evaluate(`[...document.querySelectorAll('td[data-field="lastPrice"] .aligned')]
      .map((span) => span.firstChild)
      .filter((text) => text.data.includes('.'))
      .map((text) => {
        const range = document.createRange();
        range.setStart(text, text.data.indexOf('.'));
        range.setEnd(text, text.data.indexOf('.') + 1);
        return range.getBoundingClientRect().left;
      })`)) as number[];
    expect(points).toHaveLength(listed.length);
    expect(Math.max(...points) - Math.min(...points)).toBeLessThan(0.5);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('writes the dollar worths with their unit and grouping, as estimates of the snapshot’s', async () => {
    const snapshot = await feedFrame<{ markets: MarketRow[] }>(`${stack.app.url}/console/feed`, (frame) =>
      frame.markets.some((row) => row.depthMinus2PercentUsd !== null),
    );
    const { page, problems } = await open('/console');
    for (const field of ['depthMinus2PercentUsd', 'depthPlus2PercentUsd', 'quoteVolume24hUsd'] as const) {
      const expected = Object.fromEntries(
        snapshot.markets.map((row) => [row.market, dollarsOracle(row[field])]),
      );
      await expectShown(field, () => column(page, field), expected);
    }
    const worths = Object.values(await column(page, 'depthMinus2PercentUsd')).filter((text) => text !== '—');
    expect(worths.length).toBeGreaterThan(0);
    for (const text of worths) expect(text).toMatch(/^≈ \$\d{1,3}(,\d{3})*$/);
    expect(await cellText(page, COARSE.toUpperCase(), 'depthMinus2PercentUsd')).toMatch(
      /^≈ \$\d{1,3}(,\d{3}){2,}$/,
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each([PRECISE, COARSE])(
    'writes the figures and trades of %s’s page as the API does',
    async (instrument) => {
      const market = instrument.toUpperCase();
      const [base, quote] = market.split('_');
      const record = summary[market];
      const withWorth = (rows: MarketRow[]) =>
        rows.find((candidate) => candidate.market === market && candidate.quoteVolume24hUsd !== null);
      const snapshot = await feedFrame<{ markets: MarketRow[] }>(`${stack.app.url}/console/feed`, (frame) =>
        Boolean(withWorth(frame.markets)),
      );
      const row = withWorth(snapshot.markets)!;
      const { page, problems } = await open(`/console/market/${instrument}`);
      const figures = async () => ({
        lastPrice: await figure(page, 'lastPrice'),
        bestBid: await figure(page, 'bestBid'),
        bestAsk: await figure(page, 'bestAsk'),
        quoteVolume24h: await figure(page, 'quoteVolume24h'),
      });
      await expectShown('the figures', figures, {
        lastPrice: record.last,
        bestBid: record.highestBid,
        bestAsk: record.lowestAsk,
        quoteVolume24h: `${groupedOracle(record.quoteVolume)} ${quote} (${dollarsOracle(row.quoteVolume24hUsd)})`,
      });

      const trades = (await (await fetch(`${stack.app.url}/trades/${market}`)).json()) as TradeRecord[];
      const shownTrades = () =>
        page.$$eval('tr[data-trade]', (rows) =>
          rows.map((tradeRow) => {
            const cells = [...tradeRow.querySelectorAll('td')].map((cell) => cell.textContent ?? '');
            return { id: tradeRow.getAttribute('data-trade'), price: cells[2], amount: cells[3] };
          }),
        );
      await expectShown(
        'the newest trades',
        shownTrades,
        trades
          .slice(0, 50)
          .map((trade) => ({ id: trade.tradeID, price: trade.price, amount: trade.base_volume })),
      );
      const heads = await page.$$eval('table.trades th', (cells) => cells.map((cell) => cell.textContent));
      expect(heads).toEqual(['Time', 'Side', `Price, ${quote}`, `Amount, ${base}`, 'Trade id']);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it('writes the legends with figures, never --: the latest, or the point under the cursor', async () => {
    const { page: consolePage, problems: consoleProblems } = await open('/console');
    await consolePage.waitForSelector('.chart canvas', { timeout: 15_000 });
    await waitFor('the freshness legend', 10_000, async () => (await legend(consolePage)).length === 3);
    const freshness = Object.fromEntries(await legend(consolePage));
    expect(Object.keys(freshness)).toEqual(['time', 'oldest data age', 'markets fresh']);
    expect(freshness.time).toMatch(/^\d\d:\d\d:\d\d$/);
    // A dash for a sample taken before any book was confirmed: no age to write yet.
    expect(freshness['oldest data age']).toMatch(/^(\d+(\.\d)? (ms|s|min|h|d)|—)$/);
    expect(freshness['markets fresh']).toMatch(/^\d+ of \d+$/);
    expect(consoleProblems).toEqual([]);
    await consolePage.close();

    const { page, problems } = await open(`/console/market/${PRECISE}`);
    const detail = (await (await fetch(`${stack.app.url}/console/market-data/${PRECISE}`)).json()) as {
      bids: Level[];
      asks: Level[];
    };
    const record = summary[PRECISE.toUpperCase()];
    await page.waitForSelector('.chart canvas', { timeout: 15_000 });
    const idle = [
      ['price', `${record.highestBid} / ${record.lowestAsk}`],
      ['bids', `${groupedOracle(totalOracle(detail.bids))} PEPE`],
      ['asks', `${groupedOracle(totalOracle(detail.asks))} PEPE`],
    ];
    await expectShown('the depth legend, cursor off the chart', () => legend(page), idle);

    // A quarter of the way across is among the bids (the lower prices).
    const plot = (await (await page.$('.u-over'))!.boundingBox())!;
    await page.mouse.move(plot.x + plot.width / 4, plot.y + plot.height / 2);
    await waitFor('the legend at the cursor', 10_000, async () => (await legend(page))[0][1] !== idle[0][1]);
    const [[, price], [, bids], [, asks]] = await legend(page);
    const level = detail.bids.findIndex(([bidPrice]) => bidPrice === price);
    expect(level).toBeGreaterThanOrEqual(0);
    expect(bids).toBe(`${groupedOracle(totalOracle(detail.bids.slice(0, level + 1)))} PEPE`);
    expect(asks).toBe('—');

    await page.mouse.move(plot.x - 20, plot.y - 20);
    await expectShown('the depth legend, cursor off again', () => legend(page), idle);
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each(['/console', `/console/market/${PRECISE}`, `/console/market/${COARSE}`])(
    'fits %s in 1280 px: the page never scrolls sideways, every table fits its panel',
    async (path) => {
      const { page, problems } = await open(path);
      await page.waitForSelector(path === '/console' ? 'tr[data-market]' : 'tr[data-trade]', {
        timeout: 10_000,
      });
      await page.waitForSelector('.chart canvas', { timeout: 15_000 });
      if (path === '/console')
        await waitFor(
          'a row per market',
          10_000,
          async () => (await page.$$('tr[data-market]')).length === listed.length,
        );
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
      // A live page redraws its panels: measure a moment when every table is in one.
      let tables: ({ table: string; inside: boolean } | null)[] = [];
      await waitFor('every table in its panel', 10_000, async () => {
        tables = await page.$$eval('table', (elements) =>
          elements.map((table) => {
            const panel = table.closest('.panel')?.getBoundingClientRect();
            if (!panel) return null;
            const box = table.getBoundingClientRect();
            return {
              table: table.className || table.parentElement!.className,
              inside: box.left >= panel.left - 0.5 && box.right <= panel.right + 0.5,
            };
          }),
        );
        return tables.every((table) => table !== null);
      });
      expect(tables.length).toBeGreaterThanOrEqual(path === '/console' ? 6 : 2);
      expect(tables.filter((table) => !table!.inside)).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
