import Big from 'big.js';
import request from 'supertest';
import { DAY_MS } from '../../src/market/trade-window';
import { parseExactJson } from '../../src/upstream/exact-json';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, readTruth, setFlow, Truth, TruthTrade } from '../support/truth';

/** The sandbox's visible markets, in the order the listings sort them. */
export const LISTED = [
  'btc_usdt',
  'eth_btc',
  'eth_usdt',
  'ltc_btc',
  'pepe_eth',
  'shib_usdt',
  'sol_eur',
  'usdc_usdt',
  'xrp_usdt',
];
/** Halted and paused. */
export const FROZEN = new Set(['ltc_btc', 'xrp_usdt']);
/**
 * The markets that never traded (the sandbox plays no history for halted and paused markets): no last
 * price, so `null` in the exchange's formats and left out of CoinMarketCap's and CoinGecko's tickers.
 */
export const NEVER_TRADED = new Set(['ltc_btc', 'xrp_usdt']);
/** The listed markets with a last price, as the aggregators' ticker lists hold them. */
export const PRICED = LISTED.filter((instrument) => !NEVER_TRADED.has(instrument));
export const HIDDEN = 'doge_usdt';
/** A published decimal: plain notation, no sign. */
export const PLAIN = /^\d+(\.\d+)?$/;
export const PERCENT = /^-?\d+\.\d{2}$/;

export interface Scales {
  readonly priceScale: number;
  readonly amountScale: number;
}

/** Half away from zero at `scale`, written by big.js independently of the service's own formatting. */
export function fixed(value: Big | string, scale: number): string {
  return new Big(value).round(scale, Big.roundHalfUp).toFixed(scale);
}

/** A market's published figures, recomputed from the exchange's truth. */
export interface ExpectedFigures {
  /** The trades of the 24-hour window, oldest first. */
  readonly window: readonly TruthTrade[];
  /** The newest trade's price of the window, zero without one (spec 2.8). */
  readonly last: string;
  /** The price the market last traded at; null without a trade (the sandbox's test markets hold no older ones). */
  readonly lastTraded: string | null;
  readonly high: string;
  readonly low: string;
  readonly baseVolume: string;
  readonly quoteVolume: string;
  readonly percentChange: string;
  readonly bestBid: string;
  readonly bestAsk: string;
}

export function expectedFigures(truth: Truth, scales: Scales, now: number): ExpectedFigures {
  const window = truth.trades.filter((trade) => trade.time > now - DAY_MS && trade.time <= now);
  const sum = (f: (t: TruthTrade) => Big) =>
    window.reduce((total, trade) => total.plus(f(trade)), new Big(0));
  const prices = window.map((trade) => new Big(trade.price));
  const open = window[0]?.price ?? '0';
  const last = window[window.length - 1]?.price;
  const percent = new Big(open).eq(0) ? new Big(0) : new Big(last!).minus(open).div(open).times(100);
  const extreme = (pick: (a: Big, b: Big) => Big) => (prices.length ? prices.reduce(pick) : new Big(0));
  return {
    window,
    last: fixed(last ?? '0', scales.priceScale),
    lastTraded: last === undefined ? null : fixed(last, scales.priceScale),
    high: fixed(
      extreme((a, b) => (a.gt(b) ? a : b)),
      scales.priceScale,
    ),
    low: fixed(
      extreme((a, b) => (a.lt(b) ? a : b)),
      scales.priceScale,
    ),
    baseVolume: fixed(
      sum((t) => new Big(t.amount)),
      scales.amountScale,
    ),
    quoteVolume: fixed(
      sum((t) => new Big(t.price).times(t.amount)),
      scales.priceScale,
    ),
    percentChange: fixed(percent, 2).replace(/^-(0\.00)$/, '$1'),
    bestBid: fixed(truth.bids[0]?.[0] ?? '0', scales.priceScale),
    bestAsk: fixed(truth.asks[0]?.[0] ?? '0', scales.priceScale),
  };
}

/** `[price, amount]` entries as an aggregator book publishes them, at the market's scales. */
export function renderLevels(levels: readonly [string, string][], scales: Scales): [string, string][] {
  return levels.map(([price, amount]) => [
    fixed(price, scales.priceScale),
    fixed(amount, scales.amountScale),
  ]);
}

/**
 * Published `[price, amount]` sides: every decimal plain, bids strictly descending, asks strictly
 * ascending, the book not crossed.
 */
export function expectBestFirst(bids: readonly [string, string][], asks: readonly [string, string][]): void {
  expect([...bids, ...asks].flat().filter((text) => !PLAIN.test(text))).toEqual([]);
  const prices = (side: readonly [string, string][]) => side.map(([price]) => new Big(price));
  const descending = prices(bids);
  const ascending = prices(asks);
  expect(descending.findIndex((price, i) => i > 0 && !descending[i - 1].gt(price))).toBe(-1);
  expect(ascending.findIndex((price, i) => i > 0 && !ascending[i - 1].lt(price))).toBe(-1);
  if (descending.length > 0 && ascending.length > 0) expect(descending[0].lt(ascending[0])).toBe(true);
}

/** Price and amount scales of every market, from the sandbox's own market list. */
export async function readScales(stack: TestStack): Promise<Map<string, Scales>> {
  const body = parseExactJson(
    await (await fetch(`${stack.sandbox.baseUrl}/frontoffice/api/info`)).text(),
  ) as {
    pairs: Record<string, { priceScale: string; amountScale: string }>;
  };
  return new Map(
    Object.entries(body.pairs).map(([instrument, market]) => [
      instrument,
      { priceScale: Number(market.priceScale), amountScale: Number(market.amountScale) },
    ]),
  );
}

/**
 * Pauses the market, waits until the store equals the truth and the API serves it (the book version
 * the API answers with is the truth's), and returns the truth of every listed market.
 */
export async function settle(stack: TestStack, instruments = LISTED): Promise<Map<string, Truth>> {
  await expectConverges(stack.sandbox, stack.store, instruments, 15_000);
  const truths = new Map<string, Truth>();
  for (const instrument of instruments) truths.set(instrument, await readTruth(stack.sandbox, instrument));
  const deadline = Date.now() + 5_000;
  for (const instrument of instruments) {
    const version = String(truths.get(instrument)!.version);
    for (;;) {
      const response = await request(stack.app.url).get(`/marketdata/instruments/${instrument}/depth`);
      if (response.status === 200 && /"version":(\d+)/.exec(response.text)?.[1] === version) break;
      if (Date.now() > deadline)
        throw new Error(`the API does not serve ${instrument} at version ${version}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return truths;
}

export interface SettledStack {
  readonly stack: TestStack;
  readonly truths: Map<string, Truth>;
  readonly scales: Map<string, Scales>;
}

/**
 * A stack fed by the sandbox at 20 trades a second, left to trade a moment and then settled: the
 * truth and the scales of every listed market.
 */
export async function startSettledStack(sandbox: Record<string, string> = {}): Promise<SettledStack> {
  const stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '20', ...sandbox } });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const truths = await settle(stack);
  return { stack, truths, scales: await readScales(stack) };
}

/** Stops the sandbox's trading, then the stack. */
export async function closeSettledStack(stack: TestStack): Promise<void> {
  await setFlow(stack.sandbox, 0);
  await stack.close();
}
