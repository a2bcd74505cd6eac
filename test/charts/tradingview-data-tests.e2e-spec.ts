import { DAY_MS } from '../../src/market/trade-window';
import { parseExactJson } from '../../src/upstream/exact-json';
import { MarketViews } from '../../src/api/views/market-views';
import { canonical, ChartBar, compareTrades, historyBars, rollUp, truthBars } from '../support/chart-truth';
import { untilBackfilled } from '../support/chart-backfill';
import { waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { FeedReader, field, streamedBars, streamedTrade } from '../support/tradingview-feed';
import { readTruth, setFlow } from '../support/truth';

const INSTRUMENT = 'btc_usdt';
const SYMBOL = 'BTCUSDT';
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Hours of sandbox history: six past the 24-hour trade window, served from the exchange's candles. */
const HISTORY_HOURS = 30;

/**
 * TradingView's data tests, played against the whole service on the sandbox: every figure is checked
 * against the exchange's own trades (the truth), or its own REST candles before the trade window, or
 * the minutes that a longer bar is made of. The same bars through faults: chart-faults.e2e-spec.ts.
 */
describe("TradingView's data tests on the sandbox", () => {
  let stack: TestStack;
  let url: string;
  /** Four connections to `/streaming`, open from the start so that their minutes pass while the rest runs. */
  let four: FeedReader[] = [];
  /** The first minute that began after all four were open (Unix ms). */
  let firstMinute: number;

  async function text(path: string): Promise<string> {
    const response = await fetch(`${url}${path}`);
    expect(response.status).toBe(200);
    return response.text();
  }

  const history = (resolution: string, from: number, to: number) =>
    text(`/tradingview/history?symbol=${SYMBOL}&resolution=${resolution}&from=${from}&to=${to}`);

  /** Stops the flow and waits until the gateway serves the exchange's newest trade: the bars stand still. */
  async function stillMarket(): Promise<void> {
    await setFlow(stack.sandbox, 0);
    const newest = [...(await readTruth(stack.sandbox, INSTRUMENT)).trades].sort(compareTrades).at(-1)!;
    await waitFor(async () => {
      const served = (await (await fetch(`${url}/trades/${INSTRUMENT}`)).json()) as { tradeID: string }[];
      return served[0]?.tradeID === newest.id;
    }, "the exchange's newest trade served");
  }

  beforeAll(async () => {
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '20', SANDBOX_HISTORY_HOURS: String(HISTORY_HOURS) },
    });
    url = stack.app.url;
    four = [0, 1, 2, 3].map(() => new FeedReader(url));
    await waitFor(() => four.every((reader) => reader.response !== undefined), 'four responses');
    firstMinute = Date.now() - (Date.now() % MINUTE_MS) + MINUTE_MS;
    await untilBackfilled(stack.app, INSTRUMENT);
  }, 150_000);
  afterAll(async () => {
    for (const reader of four) reader.close();
    await stack?.close();
  });

  it('symbol_info: one entry per listed market, each field of its TradingView type', async () => {
    const info = JSON.parse(await text('/tradingview/symbol_info')) as Record<string, unknown>;
    const listed = stack.app.app.get(MarketViews).markets().length;
    expect(info.s).toBe('ok');
    const symbols = info.symbol as string[];
    expect(symbols).toHaveLength(listed);
    expect(new Set(symbols).size).toBe(listed);
    for (const symbol of symbols) expect(symbol).toMatch(/^[A-Z0-9._]+$/);
    const at = symbols.indexOf(SYMBOL);
    // A field the same for every market may be one value instead of a list.
    const column = (name: string) => (Array.isArray(info[name]) ? (info[name] as unknown[])[at] : info[name]);
    expect(column('pricescale')).toBe(10 ** stack.sandbox.exchange.market(INSTRUMENT)!.spec.priceScale);
    expect([column('currency'), column('base-currency'), column('type')]).toEqual(['USDT', 'BTC', 'crypto']);
    expect(column('session-regular')).toBe('24x7');
    for (const name of ['ticker', 'description', 'pricescale', 'currency', 'base-currency'])
      expect([name, (info[name] as unknown[]).length]).toEqual([name, listed]);
  });

  it("1-minute history of the last 24 hours is the bars of the exchange's trades: none missing, none extra", async () => {
    await stillMarket();
    const truth = await readTruth(stack.sandbox, INSTRUMENT);
    const now = Date.now();
    // The minute holding the window's start is part outside the truth's 24 hours: from the next one.
    const from = now - DAY_MS - ((now - DAY_MS) % MINUTE_MS) + MINUTE_MS;
    const expected = truthBars(truth.trades).filter((bar) => bar.time * 1000 >= from);
    const body = await history('1', from / 1000, Math.floor(now / 1000));
    expect(expected.length).toBeGreaterThan(100);
    expect(historyBars(body)).toEqual(expected);
    // historyRepeatability: the same request, the same bytes.
    expect(await history('1', from / 1000, Math.floor(now / 1000))).toBe(body);
    await setFlow(stack.sandbox, 20);
  });

  it("1-minute history before the trade window is the exchange's own 1-minute candles", async () => {
    const now = Date.now();
    // The backfill's hours: from the sandbox's first whole hour to the hour after the window's start.
    const to = now - DAY_MS - ((now - DAY_MS) % HOUR_MS) + HOUR_MS;
    const from = to - (HISTORY_HOURS - 24 - 1) * HOUR_MS;
    const expected = await exchangeCandles(from, to);
    const served = historyBars(await history('1', from / 1000, to / 1000 - 1));
    expect(expected.length).toBeGreaterThan(50);
    expect(served).toEqual(expected);
  });

  it('daily bars are their minutes, and so is every 5-minute bar of the UDF datafeed', async () => {
    await stillMarket();
    const now = Math.floor(Date.now() / 1000);
    const days = historyBars(await history('1D', now - 2 * 86_400, now));
    expect(days.length).toBeGreaterThanOrEqual(2);
    for (const day of days) {
      const minutes = historyBars(await history('1', day.time, day.time + 86_399));
      expect(rollUp(minutes, 86_400)).toEqual([day]);
    }

    const from = now - 6 * 3_600 - (now % 300);
    const fives = historyBars(
      await text(`/udf/history?symbol=${SYMBOL}&resolution=5&from=${from}&to=${now + 1}`),
    );
    const minutes = historyBars(await history('1', from, now));
    expect(fives.length).toBeGreaterThan(10);
    expect(fives).toEqual(rollUp(minutes, 300));
    await setFlow(stack.sandbox, 20);
  });

  it(
    'bars built from /streaming trades equal /history once their minutes close; four connections alike',
    async () => {
      // Once the first whole minute has closed, the market is stilled, so that the one after it has
      // all its trades in as well.
      await waitFor(
        () => Date.now() >= firstMinute + MINUTE_MS + 2_000,
        'a whole minute streamed',
        2 * MINUTE_MS + 10_000,
        1_000,
      );
      await stillMarket();
      const made = (await readTruth(stack.sandbox, INSTRUMENT)).trades.filter(
        (trade) => trade.time >= firstMinute,
      );
      const streamed = () =>
        four.map((reader) =>
          reader
            .of('t', SYMBOL)
            .map(streamedTrade)
            .filter((trade) => trade.time >= firstMinute),
        );
      await waitFor(
        () => streamed().every((trades) => trades.length >= made.length),
        'every trade made streamed to all four',
      );
      const [first, ...others] = streamed();
      expect(first).toHaveLength(made.length);
      for (const other of others) expect(other).toEqual(first);
      const built = streamedBars(first);
      expect(built.length).toBeGreaterThanOrEqual(2);
      const served = historyBars(await history('1', firstMinute / 1000, Math.floor(Date.now() / 1000)));
      expect(served).toEqual(built);

      for (const reader of four) {
        expect(reader.ended).toBe(false);
        const beats = reader.of('h').map((line) => Number(field(line, 't')));
        expect(beats.length).toBeGreaterThan(0);
        expect(beats).toEqual([...beats].sort((a, b) => a - b));
      }
      await setFlow(stack.sandbox, 20);
    },
    3 * MINUTE_MS,
  );

  it('UDF: config, symbol and search name the same market', async () => {
    const config = JSON.parse(await text('/udf/config')) as Record<string, unknown>;
    expect(config.supported_resolutions).toEqual(expect.arrayContaining(['1', '1D']));
    const symbol = JSON.parse(await text(`/udf/symbols?symbol=${SYMBOL}`)) as Record<string, unknown>;
    expect(symbol).toMatchObject({ name: SYMBOL, type: 'crypto', has_intraday: true });
    const found = JSON.parse(await text(`/udf/search?query=BTC&limit=50`)) as { symbol: string }[];
    expect(found.map((each) => each.symbol)).toContain(SYMBOL);
  });

  /** The sandbox's 1-minute REST candles of `[from, to)` (at most 1,000, enough here) as chart bars. */
  async function exchangeCandles(from: number, to: number): Promise<ChartBar[]> {
    const date = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    const response = await fetch(
      `${stack.sandbox.baseUrl}/marketdata/instruments/${INSTRUMENT}/history?type=1m&count=1000&startDate=${date(from)}&endDate=${date(to)}`,
    );
    expect(response.status).toBe(200);
    const body = parseExactJson(await response.text()) as unknown as { data: Record<string, string>[] };
    return body.data.map((candle) => ({
      time: Date.parse(candle.start) / 1000,
      open: canonical(candle.open),
      high: canonical(candle.high),
      low: canonical(candle.low),
      close: canonical(candle.close),
      volume: canonical(candle.volume),
    }));
  }
});
