import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrivateRestClient } from 'sandbox-exchange';
import { parseExactJson } from '../../src/upstream/exact-json';
import { Fraction, sumOf } from '../support/exact-fraction';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, readTruth, setFlow, Truth } from '../support/truth';
import { FROZEN, LISTED } from './expected-figures';

/**
 * `/listing-health` against the sandbox's truth: every figure of every listed market recomputed here
 * with exact fractions (not with the service's own arithmetic) from the exchange's book and trades.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const REFERENCES = ['USD', 'USDT', 'USDC'];
/** The settings the flags are judged by: the defaults. */
const THRESHOLDS = {
  usd_reference_assets: REFERENCES,
  max_spread_percent: '2',
  min_depth_usd: '1000',
  stale_trades_ms: 3_600_000,
  stale_book_ms: 60_000,
  volume_depth_ratio: '100',
};
const BAND_UP = Fraction.parse('1.02');
const BAND_DOWN = Fraction.parse('0.98');
const HUNDRED = Fraction.parse('100');
/** Figures follow the books within a tenth of a second. */
const TUNING = { listingHealthRefreshMs: 100 };
const MATCH_TIMEOUT_MS = 10_000;
/** Start-up, a moment of trading and convergence; or the bounded close. Generous: no speed is assumed. */
const HOOK_TIMEOUT_MS = 60_000;

const MARKET_KEYS = [
  'instrument',
  'base',
  'quote',
  'orientation',
  'status',
  'sync_state',
  'book_version',
  'best_bid',
  'best_ask',
  'mid',
  'spread_percentage',
  'depth_plus_2_percent_quote',
  'depth_minus_2_percent_quote',
  'depth_plus_2_percent_base',
  'depth_minus_2_percent_base',
  'usd',
  'last_trade_age_ms',
  'trades_24h',
  'base_volume_24h',
  'quote_volume_24h',
  'book_age_ms',
  'flags',
].sort();

/** One market of the sandbox's own catalogue (`/frontoffice/api/info`). */
interface CatalogueMarket {
  readonly instrument: string;
  /** Upper case. */
  readonly base: string;
  readonly quote: string;
  readonly priceScale: number;
  readonly amountScale: number;
  readonly status: string;
  readonly hidden: boolean;
}

interface HealthFlag {
  readonly code: string;
  readonly message: string;
}

/** A market of `/listing-health` as served (JSON numbers for the integers, strings for decimals). */
interface HealthRecord {
  readonly instrument: string;
  readonly base: string;
  readonly quote: string;
  readonly orientation: { summary_key: string; ticker_key: string };
  readonly status: string;
  readonly sync_state: string | null;
  readonly book_version: number | null;
  readonly best_bid: string | null;
  readonly best_ask: string | null;
  readonly mid: string | null;
  readonly spread_percentage: string | null;
  readonly depth_plus_2_percent_quote: string | null;
  readonly depth_minus_2_percent_quote: string | null;
  readonly depth_plus_2_percent_base: string | null;
  readonly depth_minus_2_percent_base: string | null;
  readonly usd: {
    quote_price_path: string[] | null;
    depth_plus_2_percent: string | null;
    depth_minus_2_percent: string | null;
    quote_volume_24h: string | null;
    reason: string | null;
  };
  readonly last_trade_age_ms: number | null;
  readonly trades_24h: number;
  readonly base_volume_24h: string;
  readonly quote_volume_24h: string;
  readonly book_age_ms: number | null;
  readonly flags: HealthFlag[];
}

interface HealthReport {
  readonly generated_at: number;
  readonly books_read_at: number;
  readonly thresholds: typeof THRESHOLDS;
  readonly markets: Record<string, HealthRecord>;
}

/** The figures compared: the served record without the book's age (not in the truth), flag codes only. */
type Comparable = Omit<HealthRecord, 'book_age_ms' | 'flags' | 'orientation'> & {
  orientation: { summary_key: string; ticker_key: string };
  flags: string[];
};

async function readCatalogue(stack: TestStack): Promise<Map<string, CatalogueMarket>> {
  const response = await fetch(`${stack.sandbox.baseUrl}/frontoffice/api/info`);
  if (!response.ok) throw new Error(`/frontoffice/api/info: ${response.status}`);
  const body = parseExactJson(await response.text()) as {
    pairs: Record<string, Record<string, string>>;
  };
  return new Map(
    Object.entries(body.pairs).map(([instrument, market]) => [
      instrument,
      {
        instrument,
        base: market.baseAsset.toUpperCase(),
        quote: market.quoteAsset.toUpperCase(),
        priceScale: Number(market.priceScale),
        amountScale: Number(market.amountScale),
        status: market.status,
        hidden: Number(market.hidden) === 1,
      },
    ]),
  );
}

const listedOf = (catalogue: Map<string, CatalogueMarket>) =>
  [...catalogue.values()].filter((market) => !market.hidden).map((market) => market.instrument);

const frozen = (market: CatalogueMarket) => market.status === 'Halted' || market.status === 'Paused';

/** What one book offers, exactly, recomputed from the truth. */
interface Liquidity {
  readonly bid?: Fraction;
  readonly ask?: Fraction;
  readonly mid?: Fraction;
  readonly crossed: boolean;
  /** Asks priced at most mid × 1.02 and bids priced at least mid × 0.98: Σ price × amount, Σ amount. */
  readonly plus?: { quote: Fraction; base: Fraction };
  readonly minus?: { quote: Fraction; base: Fraction };
}

function liquidityOf(truth: Truth): Liquidity {
  const bid = truth.bids[0] && Fraction.parse(truth.bids[0][0]);
  const ask = truth.asks[0] && Fraction.parse(truth.asks[0][0]);
  if (!bid || !ask) return { bid, ask, crossed: false };
  const mid = bid.plus(ask).dividedBy(Fraction.of(2n));
  const within = (levels: [string, string][], inBand: (price: Fraction) => boolean) => {
    const kept = levels
      .map(([price, amount]) => [Fraction.parse(price), Fraction.parse(amount)] as const)
      .filter(([price]) => inBand(price));
    return {
      quote: sumOf(kept.map(([price, amount]) => price.times(amount))),
      base: sumOf(kept.map(([, amount]) => amount)),
    };
  };
  const ceiling = mid.times(BAND_UP);
  const floor = mid.times(BAND_DOWN);
  return {
    bid,
    ask,
    mid,
    crossed: bid.compare(ask) >= 0,
    plus: within(truth.asks, (price) => price.compare(ceiling) <= 0),
    minus: within(truth.bids, (price) => price.compare(floor) >= 0),
  };
}

interface PriceSource {
  readonly instrument: string;
  readonly base: string;
  readonly quote: string;
  readonly mid: Fraction;
}

/**
 * The dollar price of an asset: 1 for a reference asset; else a market against a reference asset
 * (base/ref: mid; ref/base: 1/mid), directly or through one intermediate asset; the shortest path,
 * then the references in order, then the markets' names.
 */
function usdPriceOf(
  asset: string,
  sources: readonly PriceSource[],
): { price: Fraction; path: string[] } | undefined {
  if (REFERENCES.includes(asset)) return { price: Fraction.ONE, path: [] };
  const byName = (a: PriceSource, b: PriceSource) => (a.instrument < b.instrument ? -1 : 1);
  /** Units of `to` per unit of `from` through `source`, when it joins the two. */
  const rate = (source: PriceSource, from: string, to: string): Fraction | undefined => {
    if (source.base === from && source.quote === to) return source.mid;
    if (source.quote === from && source.base === to) return Fraction.ONE.dividedBy(source.mid);
    return undefined;
  };
  /** The asset `source` trades `from` against, when it trades `from`. */
  const other = (source: PriceSource, from: string) =>
    source.base === from ? source.quote : source.quote === from ? source.base : undefined;
  for (const reference of REFERENCES) {
    const direct = sources.filter((source) => rate(source, asset, reference)).sort(byName)[0];
    if (direct) return { price: rate(direct, asset, reference)!, path: [direct.instrument] };
  }
  for (const reference of REFERENCES) {
    const paths: [PriceSource, PriceSource, string][] = [];
    for (const first of [...sources].sort(byName)) {
      const intermediate = other(first, asset);
      if (intermediate === undefined || REFERENCES.includes(intermediate)) continue;
      for (const second of [...sources].sort(byName)) {
        if (second !== first && rate(second, intermediate, reference))
          paths.push([first, second, intermediate]);
      }
    }
    const [best] = paths;
    if (best) {
      const [first, second, intermediate] = best;
      return {
        price: rate(first, asset, intermediate)!.times(rate(second, intermediate, reference)!),
        path: [first.instrument, second.instrument],
      };
    }
  }
  return undefined;
}

const NO_PATH = (asset: string) => `no dollar path for ${asset}`;

/** The comparable figures of every listed market, recomputed from the truths at the report's time. */
function expectedReport(
  catalogue: Map<string, CatalogueMarket>,
  truths: Map<string, Truth>,
  served: HealthReport,
): Record<string, Comparable> {
  const now = served.generated_at;
  const liquidity = new Map([...truths].map(([instrument, truth]) => [instrument, liquidityOf(truth)]));
  const sources: PriceSource[] = [];
  for (const [instrument, book] of liquidity) {
    const market = catalogue.get(instrument)!;
    if (!book.mid || book.crossed || frozen(market)) continue;
    sources.push({ instrument, base: market.base, quote: market.quote, mid: book.mid });
  }
  const expected: Record<string, Comparable> = {};
  for (const [instrument, truth] of truths) {
    const market = catalogue.get(instrument)!;
    const book = liquidity.get(instrument)!;
    const price = (value: Fraction | undefined) => value?.toFixed(market.priceScale) ?? null;
    const amount = (value: Fraction | undefined) => value?.toFixed(market.amountScale) ?? null;
    const window = truth.trades.filter((trade) => trade.time > now - DAY_MS && trade.time <= now);
    const quoteVolume = sumOf(
      window.map((trade) => Fraction.parse(trade.price).times(Fraction.parse(trade.amount))),
    );
    const newest = truth.trades.reduce<number | undefined>(
      (latest, trade) => (latest === undefined || trade.time > latest ? trade.time : latest),
      undefined,
    );
    let mid: string | null = null;
    let spread: string | null = null;
    if (book.mid) {
      const atScale = book.mid.toFixed(market.priceScale);
      mid = Fraction.parse(atScale).equals(book.mid) ? atScale : book.mid.toFixed(market.priceScale + 1);
      spread = book.ask!.minus(book.bid!).dividedBy(book.mid).times(HUNDRED).toFixed(2);
    }
    const usdPrice = usdPriceOf(market.quote, sources);
    const dollars = (quote: Fraction | undefined) =>
      quote === undefined || usdPrice === undefined ? null : quote.times(usdPrice.price).toFixed(2);
    const usd = {
      quote_price_path: usdPrice?.path ?? null,
      depth_plus_2_percent: dollars(book.plus?.quote),
      depth_minus_2_percent: dollars(book.minus?.quote),
      quote_volume_24h: dollars(quoteVolume),
      reason: usdPrice ? null : NO_PATH(market.quote),
    };
    const lastTradeAge = newest === undefined ? null : Math.max(0, now - newest);
    const bookAge = served.markets[instrument.toUpperCase()]?.book_age_ms ?? null;
    const flags: string[] = [];
    if (book.crossed) flags.push('crossed_book');
    if (!book.bid || !book.ask) flags.push('empty_side');
    if (spread !== null && Fraction.parse(spread).compare(Fraction.parse(THRESHOLDS.max_spread_percent)) > 0)
      flags.push('wide_spread');
    if (
      [usd.depth_plus_2_percent, usd.depth_minus_2_percent].some(
        (value) =>
          value !== null && Fraction.parse(value).compare(Fraction.parse(THRESHOLDS.min_depth_usd)) < 0,
      )
    )
      flags.push('thin_depth');
    if (lastTradeAge === null || lastTradeAge > THRESHOLDS.stale_trades_ms) flags.push('stale_trades');
    if (bookAge === null || bookAge > THRESHOLDS.stale_book_ms) flags.push('stale_book');
    if (frozen(market)) flags.push('frozen');
    if (!usdPrice) flags.push('no_usd_path');
    if (
      book.plus &&
      book.minus &&
      quoteVolume.compare(
        book.plus.quote.plus(book.minus.quote).times(Fraction.parse(THRESHOLDS.volume_depth_ratio)),
      ) > 0
    )
      flags.push('volume_without_depth');
    expected[instrument.toUpperCase()] = {
      instrument,
      base: market.base,
      quote: market.quote,
      orientation: { summary_key: instrument.toUpperCase(), ticker_key: instrument },
      status: market.status,
      sync_state: 'live',
      book_version: truth.version,
      best_bid: price(book.bid),
      best_ask: price(book.ask),
      mid,
      spread_percentage: spread,
      depth_plus_2_percent_quote: price(book.plus?.quote),
      depth_minus_2_percent_quote: price(book.minus?.quote),
      depth_plus_2_percent_base: amount(book.plus?.base),
      depth_minus_2_percent_base: amount(book.minus?.base),
      usd,
      last_trade_age_ms: lastTradeAge,
      trades_24h: window.length,
      base_volume_24h: sumOf(window.map((trade) => Fraction.parse(trade.amount))).toFixed(market.amountScale),
      quote_volume_24h: quoteVolume.toFixed(market.priceScale),
      flags: flags.sort(),
    };
  }
  return expected;
}

/** The served figures in the comparable form: the no-path reason named by its asset, flag codes sorted. */
function comparable(served: HealthReport): Record<string, Comparable> {
  return Object.fromEntries(
    Object.entries(served.markets).map(([key, record]) => {
      const { flags, orientation, usd } = record;
      // The book's age is not in the truth: the flags it decides are recomputed from the served age.
      const rest = Object.fromEntries(
        Object.entries(record).filter(
          ([field]) => !['book_age_ms', 'flags', 'orientation', 'usd'].includes(field),
        ),
      );
      const reason =
        usd.reason === null
          ? null
          : usd.reason.startsWith(`no listed market prices ${record.quote} in ${REFERENCES.join(', ')}`)
            ? NO_PATH(record.quote)
            : usd.reason;
      const figures = {
        ...rest,
        orientation: { summary_key: orientation.summary_key, ticker_key: orientation.ticker_key },
        usd: { ...usd, reason },
        flags: flags.map((flag) => flag.code).sort(),
      } as Comparable;
      return [key, figures];
    }),
  );
}

/**
 * JSON with every object's keys sorted: equal texts for equal figures whatever the key order (a
 * structural comparison would tell the arrays of `fetch`'s realm from the test's).
 */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)))
      : item,
  );
}

interface Matched {
  readonly served: HealthReport;
  readonly actual: Record<string, Comparable>;
  readonly expected: Record<string, Comparable>;
  readonly truths: Map<string, Truth>;
}

/**
 * Reads the truths and the report until every figure agrees (books are read again at most every
 * listingHealthRefreshMs), or the time is up; the caller compares what it got last.
 */
async function matchedReport(
  stack: TestStack,
  catalogue: Map<string, CatalogueMarket>,
  instruments: readonly string[],
  path = '/listing-health',
): Promise<Matched> {
  const deadline = Date.now() + MATCH_TIMEOUT_MS;
  for (;;) {
    const truths = new Map(
      await Promise.all(
        instruments.map(
          async (instrument) => [instrument, await readTruth(stack.sandbox, instrument)] as const,
        ),
      ),
    );
    const response = await fetch(`${stack.app.url}${path}`);
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    const served = (await response.json()) as HealthReport;
    const actual = comparable(served);
    // A one-market report is compared on its market; the full report's keys are asserted by its test.
    const expected = Object.fromEntries(
      Object.entries(expectedReport(catalogue, truths, served)).filter(([key]) => key in served.markets),
    );
    if (canonical(actual) === canonical(expected) || Date.now() > deadline)
      return { served, actual, expected, truths };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Checks what the comparison leaves out: the record's keys, the ages and the flags' messages. */
function expectWellFormed(served: HealthReport): void {
  expect(served.thresholds).toEqual(THRESHOLDS);
  expect(served.books_read_at).toBeLessThanOrEqual(served.generated_at);
  for (const record of Object.values(served.markets)) {
    expect(Object.keys(record).sort()).toEqual(MARKET_KEYS);
    if (record.book_age_ms !== null) {
      expect(Number.isInteger(record.book_age_ms)).toBe(true);
      expect(record.book_age_ms).toBeGreaterThanOrEqual(0);
    }
    for (const flag of record.flags) expect(flag.message).toMatch(/\S/);
    const noPath = record.flags.find((flag) => flag.code === 'no_usd_path');
    expect(noPath?.message ?? null).toBe(record.usd.reason);
  }
}

describe('/listing-health recomputed from the sandbox truth', () => {
  let stack: TestStack;
  let catalogue: Map<string, CatalogueMarket>;
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'mdg-listing-health-'));
    // The demo user (the gateway's login) with enough ETH to sell into every bid of eth_usdt, and USDT
    // to bid.
    const users = join(directory, 'users.json');
    writeFileSync(
      users,
      JSON.stringify([
        {
          userId: 1,
          email: 'demo@example.com',
          password: 'demo',
          operator: true,
          balances: { eth: '1000000000', usdt: '1000000000' },
        },
      ]),
    );
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '20', SANDBOX_RATE_LIMITS: 'false', SANDBOX_USERS_FILE: users },
      tuning: TUNING,
      redis: false,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await expectConverges(stack.sandbox, stack.store, LISTED, 15_000);
    catalogue = await readCatalogue(stack);
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    if (stack) {
      await setFlow(stack.sandbox, 0);
      await stack.close();
    }
    if (directory) rmSync(directory, { recursive: true, force: true });
  }, HOOK_TIMEOUT_MS);

  it('lists every visible market with every figure equal to the exact recomputation', async () => {
    expect(listedOf(catalogue).sort()).toEqual(LISTED);
    const { served, actual, expected } = await matchedReport(stack, catalogue, LISTED);
    expect(Object.keys(served.markets).sort()).toEqual(LISTED.map((instrument) => instrument.toUpperCase()));
    expect(actual).toEqual(expected);
    expectWellFormed(served);

    const market = (instrument: string) => served.markets[instrument.toUpperCase()];
    // The 18-decimal market: prices and base amounts at 18 decimals, ETH priced directly.
    expect(market('pepe_eth').best_bid).toMatch(/^0\.\d{18}$/);
    expect(market('pepe_eth').depth_plus_2_percent_base).toMatch(/^\d+\.\d{18}$/);
    expect(market('pepe_eth').usd.quote_price_path).toEqual(['eth_usdt']);
    expect(market('eth_btc').usd.quote_price_path).toEqual(['btc_usdt']);
    expect(market('btc_usdt').usd.quote_price_path).toEqual([]);
    // Halted and paused: a book and its figures, no trades, frozen.
    for (const instrument of FROZEN) {
      const record = market(instrument);
      expect(record.best_bid).not.toBeNull();
      expect(record.last_trade_age_ms).toBeNull();
      expect(record.trades_24h).toBe(0);
      expect(record.flags.map((flag) => flag.code)).toEqual(
        expect.arrayContaining(['frozen', 'stale_trades']),
      );
    }
    // No market prices EUR.
    expect(market('sol_eur').usd).toEqual({
      quote_price_path: null,
      depth_plus_2_percent: null,
      depth_minus_2_percent: null,
      quote_volume_24h: null,
      reason: expect.stringContaining('EUR'),
    });
    expect(market('sol_eur').flags.map((flag) => flag.code)).toContain('no_usd_path');
  });

  it('/listing-health/{instrument} gives the same figures for one market', async () => {
    const { served, actual, expected } = await matchedReport(
      stack,
      catalogue,
      LISTED,
      '/listing-health/PEPE-ETH',
    );
    expect(Object.keys(served.markets)).toEqual(['PEPE_ETH']);
    expect(actual.PEPE_ETH).toEqual(expected.PEPE_ETH);
  });

  it(
    'writes a mid that halving leaves between two ticks with one more decimal',
    async () => {
      const { priceScale, amountScale } = catalogue.get('btc_usdt')!;
      const tick = Fraction.of(1n, 10n ** BigInt(priceScale));
      const top = await readTruth(stack.sandbox, 'btc_usdt');
      const bid = Fraction.parse(top.bids[0][0]);
      const ask = Fraction.parse(top.asks[0][0]);
      expect(ask.minus(bid).compare(tick)).toBeGreaterThan(0);
      // Ticks in bid + ask: odd already, or made odd by a bid one tick higher.
      if (bid.plus(ask).dividedBy(tick).numerator % 2n === 0n) {
        const buy = await new PrivateRestClient(stack.sandbox.baseUrl).placed({
          instrument: 'btc_usdt',
          type: 'buy',
          amount: Fraction.parse('0.01').toFixed(amountScale),
          price: bid.plus(tick).toFixed(priceScale),
          isLimit: true,
        });
        expect(buy.status).toBe('Working');
        await expectConverges(stack.sandbox, stack.store, ['btc_usdt'], 15_000);
      }
      const { served, actual, expected, truths } = await matchedReport(stack, catalogue, LISTED);
      expect(actual).toEqual(expected);
      const truth = truths.get('btc_usdt')!;
      const mid = Fraction.parse(truth.bids[0][0])
        .plus(Fraction.parse(truth.asks[0][0]))
        .dividedBy(Fraction.of(2n));
      expect(served.markets.BTC_USDT.mid).toBe(mid.toFixed(priceScale + 1));
      expect(served.markets.BTC_USDT.mid).toMatch(new RegExp(`^\\d+\\.\\d{${priceScale}}5$`));
    },
    HOOK_TIMEOUT_MS,
  );

  it(
    'an emptied side nulls the mid, spread and depth, flags empty_side and stops pricing other markets',
    async () => {
      const before = await readTruth(stack.sandbox, 'eth_usdt');
      const scale = catalogue.get('eth_usdt')!.amountScale;
      const everyBid = sumOf(before.bids.map(([, amount]) => Fraction.parse(amount))).toFixed(scale);
      // A market sell of every bid's amount takes the whole bid side.
      const sell = await new PrivateRestClient(stack.sandbox.baseUrl).placed({
        instrument: 'eth_usdt',
        type: 'sell',
        amount: everyBid,
        isLimit: false,
      });
      expect(sell.status).toBe('Completed');
      const after = await readTruth(stack.sandbox, 'eth_usdt');
      expect(after.bids).toEqual([]);
      expect(after.asks.length).toBeGreaterThan(0);
      await expectConverges(stack.sandbox, stack.store, ['eth_usdt'], 15_000);

      const { served, actual, expected } = await matchedReport(stack, catalogue, LISTED);
      expect(actual).toEqual(expected);
      expectWellFormed(served);
      const emptied = served.markets.ETH_USDT;
      expect(emptied).toMatchObject({
        best_bid: null,
        mid: null,
        spread_percentage: null,
        depth_plus_2_percent_quote: null,
        depth_minus_2_percent_quote: null,
        depth_plus_2_percent_base: null,
        depth_minus_2_percent_base: null,
        usd: { quote_price_path: [], depth_plus_2_percent: null, depth_minus_2_percent: null, reason: null },
      });
      expect(emptied.best_ask).not.toBeNull();
      expect(emptied.flags.map((flag) => flag.code)).toContain('empty_side');
      // ETH is now priced through BTC.
      expect(served.markets.PEPE_ETH.usd.quote_price_path).toEqual(['eth_btc', 'btc_usdt']);
    },
    HOOK_TIMEOUT_MS,
  );
});

describe('/listing-health dollar figures through an intermediate market and an inverted one', () => {
  const MARKETS = [
    {
      baseAsset: 'abc',
      quoteAsset: 'eth',
      priceScale: 6,
      amountScale: 3,
      minAmount: '0.1',
      initialPrice: '0.012345',
      typicalAmount: '50',
    },
    {
      baseAsset: 'eth',
      quoteAsset: 'btc',
      priceScale: 8,
      amountScale: 6,
      minAmount: '0.001',
      initialPrice: '0.05123456',
      typicalAmount: '2.5',
    },
    {
      baseAsset: 'btc',
      quoteAsset: 'usdt',
      priceScale: 2,
      amountScale: 8,
      minAmount: '0.0001',
      initialPrice: '65000.00',
      typicalAmount: '0.35',
    },
    // Beside btc_usdt: USDT comes before USDC in USD_REFERENCE_ASSETS, though btc_usdc sorts first.
    {
      baseAsset: 'btc',
      quoteAsset: 'usdc',
      priceScale: 2,
      amountScale: 8,
      minAmount: '0.0001',
      initialPrice: '65010.00',
      typicalAmount: '0.35',
    },
    // ETH -> XYZ -> USDT is as short as ETH -> BTC -> USDT: eth_btc sorts before eth_xyz.
    {
      baseAsset: 'eth',
      quoteAsset: 'xyz',
      priceScale: 2,
      amountScale: 5,
      minAmount: '0.001',
      initialPrice: '23507.22',
      typicalAmount: '3',
    },
    {
      baseAsset: 'usdt',
      quoteAsset: 'xyz',
      priceScale: 4,
      amountScale: 2,
      minAmount: '1',
      initialPrice: '7.1234',
      typicalAmount: '1000',
    },
    {
      baseAsset: 'def',
      quoteAsset: 'xyz',
      priceScale: 5,
      amountScale: 3,
      minAmount: '0.01',
      initialPrice: '12.34567',
      typicalAmount: '40',
    },
  ];
  const INSTRUMENTS = MARKETS.map((market) => `${market.baseAsset}_${market.quoteAsset}`).sort();
  let stack: TestStack;
  let catalogue: Map<string, CatalogueMarket>;
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'mdg-listing-health-markets-'));
    const markets = join(directory, 'markets.json');
    writeFileSync(markets, JSON.stringify(MARKETS));
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '20', SANDBOX_RATE_LIMITS: 'false', SANDBOX_MARKETS_FILE: markets },
      tuning: TUNING,
      redis: false,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await expectConverges(stack.sandbox, stack.store, INSTRUMENTS, 15_000);
    catalogue = await readCatalogue(stack);
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    if (stack) {
      await setFlow(stack.sandbox, 0);
      await stack.close();
    }
    if (directory) rmSync(directory, { recursive: true, force: true });
  }, HOOK_TIMEOUT_MS);

  it('prices ETH through eth_btc and btc_usdt and XYZ as 1 / mid of usdt_xyz, exactly', async () => {
    expect(listedOf(catalogue).sort()).toEqual(INSTRUMENTS);
    const { served, actual, expected, truths } = await matchedReport(stack, catalogue, INSTRUMENTS);
    expect(actual).toEqual(expected);
    expectWellFormed(served);

    const paths = Object.fromEntries(
      Object.values(served.markets).map((record) => [record.instrument, record.usd.quote_price_path]),
    );
    expect(paths).toEqual({
      abc_eth: ['eth_btc', 'btc_usdt'],
      btc_usdc: [],
      btc_usdt: [],
      def_xyz: ['usdt_xyz'],
      eth_btc: ['btc_usdt'],
      eth_xyz: ['usdt_xyz'],
      usdt_xyz: ['usdt_xyz'],
    });
    // Spelled out for two markets: the dollar volume is the exact quote volume times the exact price.
    const mid = (instrument: string) => liquidityOf(truths.get(instrument)!).mid!;
    const quoteVolume = (instrument: string) =>
      sumOf(
        truths
          .get(instrument)!
          .trades.filter(
            (trade) => trade.time > served.generated_at - DAY_MS && trade.time <= served.generated_at,
          )
          .map((trade) => Fraction.parse(trade.price).times(Fraction.parse(trade.amount))),
      );
    const ethUsd = mid('eth_btc').times(mid('btc_usdt'));
    expect(served.markets.ABC_ETH.usd.quote_volume_24h).toBe(quoteVolume('abc_eth').times(ethUsd).toFixed(2));
    const xyzUsd = Fraction.ONE.dividedBy(mid('usdt_xyz'));
    expect(served.markets.DEF_XYZ.usd.quote_volume_24h).toBe(quoteVolume('def_xyz').times(xyzUsd).toFixed(2));
    expect(served.markets.ABC_ETH.usd.depth_minus_2_percent).not.toBeNull();
  });
});
