import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Browser } from 'puppeteer-core';
import { PrivateRestClient, Side } from 'sandbox-exchange';
import { BUNDLE_DIR, BundleManifest } from '../../src/api/console/console-bundle';
import { canonicalDecimal } from '../../src/market/decimal';
import { formatUnits } from '../../src/market/fixed-point';
import { cellText, ensurePagesBuilt, launchBrowser, waitFor } from '../support/headless-browser';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges } from '../support/truth';
import { percentile, positive, progress, sleep } from './bench-process';
import { describeMachine } from './machine';

const INSTRUMENT = 'btc_usdt';
const MARKET = 'BTC_USDT';
/** The promise for a trade on the page. */
const TRADE_TARGET_MS = 2_000;

/**
 * The operator console as a browser meets it: the bundle's size (raw, gzip, brotli: what the
 * gateway sends), the time from navigation start to the first market row painted in a headless
 * Chromium (a fresh page each load, the bundle in the browser's cache after the first), and the lag
 * from a trade the sandbox made to its price on the page.
 *
 *   node -r ./test/bench/swc-register.js test/bench/console-bench.ts [--loads 5] [--trades 10]
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      loads: { type: 'string', default: '5' },
      trades: { type: 'string', default: '10' },
      full: { type: 'boolean', default: false },
    },
  });
  const loads = values.full ? 15 : positive(values.loads, 'loads');
  const trades = values.full ? 40 : positive(values.trades, 'trades');
  const loadAtStart = loadavg()[0];
  ensurePagesBuilt();
  const sizes = bundleSizes();
  let browser: Browser | undefined;
  let stack: TestStack | undefined;
  try {
    browser = await launchBrowser();
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '0', SANDBOX_RATE_LIMITS: 'false' },
      redis: false,
    });
    await expectConverges(stack.sandbox, stack.store, [INSTRUMENT], 15_000);
    progress(`${loads} loads of each page`);
    const firstRow = {
      console: await firstRowTimes(browser, `${stack.app.url}/console`, loads),
      status: await firstRowTimes(browser, `${stack.app.url}/status`, loads),
    };
    progress(`${trades} trades`);
    const lags = await tradeLags(browser, stack, trades);
    const median = (values: number[]) => percentile(values, 50).toFixed(0);
    const lines = [
      `## Operator console`,
      '',
      `${describeMachine()}; load average ${loadAtStart.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end.`,
      '',
      '| Bundle file | Raw bytes | gzip | brotli |',
      '|---|---|---|---|',
      ...sizes.map((size) => `| ${size.kind} | ${size.raw} | ${size.gzip} | ${size.brotli} |`),
      '',
      '| Page | First row painted, median of ' + loads + ' loads (ms) | min | max |',
      '|---|---|---|---|',
      ...Object.entries(firstRow).map(
        ([page, times]) =>
          `| /${page} | ${median(times)} | ${Math.min(...times).toFixed(0)} | ${Math.max(...times).toFixed(0)} |`,
      ),
      '',
      `Trade to page (${trades} trades, target ${TRADE_TARGET_MS} ms): median ${median(lags)} ms, ` +
        `p95 ${percentile(lags, 95).toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms.`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (Math.max(...lags) >= TRADE_TARGET_MS) process.exitCode = 1;
  } finally {
    await browser?.close();
    stack?.app.app.getHttpServer().closeAllConnections();
    await stack?.close();
  }
}

function bundleSizes(): { kind: string; raw: number; gzip: number; brotli: number }[] {
  const manifest = JSON.parse(readFileSync(join(BUNDLE_DIR, 'manifest.json'), 'utf8')) as BundleManifest;
  return [
    ['script', manifest.script],
    ['style sheet', manifest.style],
  ].map(([kind, file]) => {
    const bytes = readFileSync(join(BUNDLE_DIR, file));
    return {
      kind,
      raw: bytes.length,
      gzip: gzipSync(bytes).length,
      brotli: brotliCompressSync(bytes).length,
    };
  });
}

/**
 * Run in the page before its own script: notes `performance.now()` (milliseconds since navigation
 * start) in the frame after the first market row entered the document, once it is painted.
 */
const FIRST_ROW_WATCH = `
  const seen = new MutationObserver(() => {
    if (!document.querySelector('tr[data-market]')) return;
    seen.disconnect();
    requestAnimationFrame(() => setTimeout(() => (window.firstRowMs = performance.now())));
  });
  seen.observe(document, { childList: true, subtree: true });
`;

/** Milliseconds from navigation start to the frame after the first market row entered the page. */
async function firstRowTimes(browser: Browser, url: string, loads: number): Promise<number[]> {
  const times: number[] = [];
  for (let load = 0; load < loads; load++) {
    const page = await browser.newPage();
    await page.evaluateOnNewDocument(FIRST_ROW_WATCH);
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction('window.firstRowMs !== undefined', { timeout: 15_000 });
    times.push((await page.evaluate('window.firstRowMs')) as number);
    await page.close();
  }
  return times;
}

/** From the taker order the sandbox filled to its price in the market's row, for each of `count` trades. */
async function tradeLags(browser: Browser, stack: TestStack, count: number): Promise<number[]> {
  const page = await browser.newPage();
  await page.goto(`${stack.app.url}/console`, { waitUntil: 'domcontentloaded' });
  await waitFor(
    'the market row',
    10_000,
    async () => (await cellText(page, MARKET, 'lastPrice')) !== undefined,
  );
  const client = new PrivateRestClient(stack.sandbox.baseUrl);
  const market = stack.sandbox.exchange.market(INSTRUMENT)!;
  const lags: number[] = [];
  for (let trade = 0; trade < count; trade++) {
    const bid = market.bestPrice(Side.Buy)!;
    const ask = market.bestPrice(Side.Sell)!;
    const price = formatUnits(bid + (ask - bid) / 2n, market.spec.priceScale);
    await client.placed({ instrument: INSTRUMENT, type: 'sell', amount: '0.01', price, isLimit: true });
    const tradedAt = performance.now();
    await client.placed({ instrument: INSTRUMENT, type: 'buy', amount: '0.01', price, isLimit: true });
    await waitFor('the trade on the page', 10_000, async () => {
      const shown = await cellText(page, MARKET, 'lastPrice');
      return shown !== undefined && shown !== '—' && canonicalDecimal(shown) === canonicalDecimal(price);
    });
    lags.push(performance.now() - tradedAt);
    await sleep(100);
  }
  await page.close();
  return lags;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
