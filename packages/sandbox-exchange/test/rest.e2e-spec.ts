import { isLosslessNumber, LosslessNumber, parse } from 'lossless-json';
import { Side } from '../src/engine/side';
import { formatUnits, parseUnits } from '../src/engine/units';
import { CANDLE_INTERVALS, CandleInterval } from '../src/wire/candle-interval';
import { MarketSimulator } from '../src/simulation/market-simulator';
import { SandboxTrade } from '../src/simulation/sandbox-trade';
import { RunningSandbox } from '../src/start-sandbox';
import { startTestSandbox } from './support/start-test-sandbox';

/* eslint-disable @typescript-eslint/no-explicit-any -- bodies are checked field by field below */

// The machine may be shared with other suites; the slowest test here takes about a second alone.
jest.setTimeout(20_000);

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
  /** Parsed without loss: every JSON number is a LosslessNumber holding its exact text. */
  readonly body: any;
}

async function get(sandbox: RunningSandbox, path: string): Promise<Answer> {
  const response = await fetch(sandbox.baseUrl + path);
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    body: parse(text),
  };
}

/** The exact text of a JSON number; fails for anything that is not a bare JSON number. */
function numberText(value: unknown): string {
  if (!isLosslessNumber(value)) throw new Error(`expected a JSON number, got ${JSON.stringify(value)}`);
  return (value as LosslessNumber).value;
}

/** Units of a JSON number at a scale; fails for exponents or more decimals than the scale. */
function units(value: unknown, scale: number): bigint {
  return parseUnits(numberText(value), scale);
}

function expectErrorBody(answer: Answer, status: number, pattern: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.contentType).toMatch(/^application\/json/);
  expect(Object.keys(answer.body)).toEqual(['errors']);
  expect(answer.body.errors.length).toBeGreaterThan(0);
  for (const error of answer.body.errors) {
    expect(typeof error.code).toBe('string');
    expect(typeof error.message).toBe('string');
  }
  expect(answer.body.errors.map((error: { message: string }) => error.message).join('\n')).toMatch(pattern);
}

const EPOCH_TICKS = 621_355_968_000_000_000n;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `YYYY-MM-DDThh:mm:ss` of a Unix-millisecond time, as a client sends it. */
function queryDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** UTC bucket of a trade time, written independently of the sandbox's candle code. */
function bucketOf(time: number, type: CandleInterval): { start: number; end: number } {
  const fixed: Record<string, number> = {
    '1m': MINUTE,
    '5m': 5 * MINUTE,
    '15m': 15 * MINUTE,
    '30m': 30 * MINUTE,
    '1h': HOUR,
    '12h': 12 * HOUR,
    '1d': DAY,
  };
  if (fixed[type]) {
    const start = Math.floor(time / fixed[type]) * fixed[type];
    return { start, end: start + fixed[type] };
  }
  const date = new Date(time);
  if (type === '1w') {
    const midnight = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    const start = midnight - ((date.getUTCDay() + 6) % 7) * DAY; // weeks start on Monday
    return { start, end: start + 7 * DAY };
  }
  return {
    start: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1),
    end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
  };
}

interface ExpectedCandle {
  start: number;
  end: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
  quoteVolume: bigint;
}

function expectedCandles(trades: readonly SandboxTrade[], type: CandleInterval): ExpectedCandle[] {
  const candles = new Map<number, ExpectedCandle>();
  for (const trade of [...trades].sort((a, b) => a.time - b.time || a.id - b.id)) {
    const { start, end } = bucketOf(trade.time, type);
    const candle = candles.get(start);
    if (!candle) {
      const p = trade.price;
      candles.set(start, {
        start,
        end,
        open: p,
        high: p,
        low: p,
        close: p,
        volume: trade.amount,
        quoteVolume: p * trade.amount,
      });
      continue;
    }
    candle.high = trade.price > candle.high ? trade.price : candle.high;
    candle.low = trade.price < candle.low ? trade.price : candle.low;
    candle.close = trade.price;
    candle.volume += trade.amount;
    candle.quoteVolume += trade.price * trade.amount;
  }
  return [...candles.values()].sort((a, b) => a.start - b.start);
}

function allTrades(market: MarketSimulator): SandboxTrade[] {
  return market.tradeLog.between(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
}

/** Compares candles as one line each, so that a thousand of them take one assertion. */
function expectCandlesMatch(body: any, market: MarketSimulator, expected: readonly ExpectedCandle[]): void {
  const { priceScale, amountScale, instrument } = market.spec;
  const fields = new Set(body.data.map((candle: object) => Object.keys(candle).join()));
  if (expected.length > 0) {
    expect([...fields]).toEqual(['instrument,start,end,low,high,volume,quoteVolume,open,close']);
  }
  const utc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const line = (
    c: Omit<ExpectedCandle, 'start' | 'end'> & { instrument: string; start: string; end: string },
  ) => [c.instrument, c.start, c.end, c.open, c.high, c.low, c.close, c.volume, c.quoteVolume].join(' ');
  const received = body.data.map((candle: any) =>
    line({
      instrument: candle.instrument,
      start: candle.start,
      end: candle.end,
      open: units(candle.open, priceScale),
      high: units(candle.high, priceScale),
      low: units(candle.low, priceScale),
      close: units(candle.close, priceScale),
      volume: units(candle.volume, amountScale),
      quoteVolume: units(candle.quoteVolume, priceScale + amountScale),
    }),
  );
  const wanted = expected.map((candle) =>
    line({ ...candle, instrument, start: utc(candle.start), end: utc(candle.end) }),
  );
  expect(received).toEqual(wanted);
}

describe('sandbox public REST', () => {
  let sandbox: RunningSandbox;
  /** One generated market with two days of history: trades in more than 1000 minutes. */
  let busy: RunningSandbox;

  beforeAll(async () => {
    [sandbox, busy] = await Promise.all([
      startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_RATE_LIMITS: 'false' }),
      startTestSandbox({
        SANDBOX_FLOW_RATE: '0',
        SANDBOX_RATE_LIMITS: 'false',
        SANDBOX_MARKET_COUNT: '1',
        SANDBOX_HISTORY_HOURS: '48',
        // Dense enough that well over 1,000 minutes hold trades, wherever the minutes fall.
        SANDBOX_HISTORY_RATE: '0.5',
      }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([sandbox?.close(), busy?.close()]);
  });

  describe('GET /frontoffice/api/info', () => {
    it('lists every market with every field of the market record, numbers as JSON numbers', async () => {
      const answer = await get(sandbox, '/frontoffice/api/info');
      expect(answer.status).toBe(200);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(Object.keys(answer.body)).toEqual(['serverTime', 'pairs']);
      const markets = sandbox.exchange.all();
      expect(Object.keys(answer.body.pairs).sort()).toEqual(markets.map((m) => m.instrument).sort());
      for (const market of markets) {
        const { spec } = market;
        const pair = answer.body.pairs[spec.instrument];
        expect(Object.keys(pair).sort()).toEqual(
          [
            'baseAsset',
            'quoteAsset',
            'minAmount',
            'priceDeviation',
            'hidden',
            'makerFee',
            'makerFeeLimit',
            'takerFee',
            'takerFeeLimit',
            'priceScale',
            'amountScale',
            'createdAt',
            'updatedAt',
            'status',
            'side',
            'isCustom',
          ].sort(),
        );
        expect(pair.baseAsset).toBe(spec.baseAsset);
        expect(pair.quoteAsset).toBe(spec.quoteAsset);
        expect(units(pair.minAmount, spec.amountScale)).toBe(parseUnits(spec.minAmount, spec.amountScale));
        expect(units(pair.priceDeviation, 18)).toBe(parseUnits(spec.priceDeviation, 18));
        expect(units(pair.makerFee, 18)).toBe(parseUnits(spec.makerFee, 18));
        expect(units(pair.takerFee, 18)).toBe(parseUnits(spec.takerFee, 18));
        expect(numberText(pair.makerFeeLimit)).toBe('0');
        expect(numberText(pair.takerFeeLimit)).toBe('0');
        expect(numberText(pair.hidden)).toBe(String(spec.hidden));
        expect(numberText(pair.priceScale)).toBe(String(spec.priceScale));
        expect(numberText(pair.amountScale)).toBe(String(spec.amountScale));
        expect(pair.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/);
        expect(pair.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/);
        expect(['Open', 'Halted', 'Paused']).toContain(pair.status);
        expect(pair.status).toBe(market.status);
        expect(['BuySell', 'Buy', 'Sell']).toContain(pair.side);
        expect(typeof pair.isCustom).toBe('boolean');
        expect(pair.isCustom).toBe(spec.isCustom);
      }
      // The built-in set covers the special cases the gateway must handle.
      expect(answer.body.pairs.ltc_btc.status).toBe('Halted');
      expect(answer.body.pairs.xrp_usdt.status).toBe('Paused');
      expect(numberText(answer.body.pairs.doge_usdt.hidden)).toBe('1');
      expect(answer.body.pairs.usdc_usdt.isCustom).toBe(true);
      expect(numberText(answer.body.pairs.pepe_eth.amountScale)).toBe('18');
    });

    it('sends serverTime as exact .NET ticks of the current time', async () => {
      const before = Date.now();
      const answer = await get(sandbox, '/frontoffice/api/info');
      const after = Date.now();
      const text = numberText(answer.body.serverTime);
      expect(text).toMatch(/^\d{18}$/);
      expect(answer.text).toContain(`"serverTime":${text},`);
      const ticks = BigInt(text);
      expect(ticks > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      const ms = Number((ticks - EPOCH_TICKS) / 10_000n);
      expect(ms).toBeGreaterThanOrEqual(before);
      expect(ms).toBeLessThanOrEqual(after);
    });

    it('reports the live status while a halt fault is on', async () => {
      sandbox.exchange.faults.set('halt-market', true, { instrument: 'btc_usdt' });
      try {
        expect((await get(sandbox, '/frontoffice/api/info')).body.pairs.btc_usdt.status).toBe('Halted');
      } finally {
        sandbox.exchange.faults.set('halt-market', false);
      }
      expect((await get(sandbox, '/frontoffice/api/info')).body.pairs.btc_usdt.status).toBe('Open');
    });
  });

  describe('GET /marketdata/instruments/{instrument}/depth', () => {
    it('sends the full book of every market, both sides ascending, with version and totals', async () => {
      for (const market of sandbox.exchange.all()) {
        const { instrument, priceScale, amountScale } = market.spec;
        const answer = await get(sandbox, `/marketdata/instruments/${instrument}/depth`);
        expect(answer.status).toBe(200);
        expect(answer.contentType).toMatch(/^application\/json/);
        const book = answer.body;
        expect(Object.keys(book)).toEqual([
          'instrument',
          'bids',
          'asks',
          'version',
          'askTotalAmount',
          'bidTotalAmount',
          'snapshot',
        ]);
        expect(book.instrument).toBe(instrument);
        expect(book.snapshot).toBe(true);
        expect(Number(numberText(book.version))).toBe(market.version);

        const levels = (entries: any[]) => {
          const shapes = new Set(entries.map((entry) => Object.keys(entry).join()));
          expect([...shapes]).toEqual(['amount,price']);
          return entries.map((entry) => ({
            price: units(entry.price, priceScale),
            amount: units(entry.amount, amountScale),
          }));
        };
        const bids = levels(book.bids);
        const asks = levels(book.asks);
        expect(bids.length).toBeGreaterThan(0);
        expect(asks.length).toBeGreaterThan(0);
        for (const side of [bids, asks]) {
          expect(side.every((level, i) => i === 0 || level.price > side[i - 1].price)).toBe(true);
          expect(side.every((level) => level.amount > 0n)).toBe(true);
        }
        expect(bids[bids.length - 1].price < asks[0].price).toBe(true);

        const line = ({ price, amount }: { price: bigint; amount: bigint }) => `${price} ${amount}`;
        const engineLevels = (side: Side) => [...market.engine.levels(side)].map(line);
        expect(bids.map(line)).toEqual(engineLevels(Side.Buy).reverse());
        expect(asks.map(line)).toEqual(engineLevels(Side.Sell));

        const sum = (side: { amount: bigint }[]) => side.reduce((total, level) => total + level.amount, 0n);
        expect(units(book.bidTotalAmount, amountScale)).toBe(sum(bids));
        expect(units(book.askTotalAmount, amountScale)).toBe(sum(asks));
      }
    });

    it('writes the 18-decimal amounts exactly, digits a float would lose included', async () => {
      const market = sandbox.exchange.market('pepe_eth')!;
      const { text } = await get(sandbox, '/marketdata/instruments/pepe_eth/depth');
      let beyondFloat = 0;
      for (const side of [Side.Buy, Side.Sell]) {
        for (const level of market.engine.levels(side)) {
          const amount = formatUnits(level.amount, 18);
          expect(text).toContain(`{"amount":${amount},"price":${formatUnits(level.price, 18)}}`);
          if (String(Number(amount)) !== amount) beyondFloat++;
        }
      }
      expect(beyondFloat).toBeGreaterThan(0);
      const total = formatUnits(market.engine.totalAmount(Side.Buy), 18);
      expect(total.replace(/\D/g, '').replace(/^0+/, '').length).toBeGreaterThan(17);
      expect(text).toContain(`"bidTotalAmount":${total}`);
    });

    it('follows the book: a changed market answers with its new version', async () => {
      const market = sandbox.exchange.market('eth_usdt')!;
      const before = Number(
        numberText((await get(sandbox, '/marketdata/instruments/eth_usdt/depth')).body.version),
      );
      sandbox.exchange.stepMarket(market, 25);
      const after = Number(
        numberText((await get(sandbox, '/marketdata/instruments/eth_usdt/depth')).body.version),
      );
      expect(after).toBeGreaterThan(before);
      expect(after).toBe(market.version);
    });

    it('answers 404 with the error body for an unknown instrument, case included', async () => {
      expectErrorBody(await get(sandbox, '/marketdata/instruments/abc_xyz/depth'), 404, /abc_xyz/);
      expectErrorBody(await get(sandbox, '/marketdata/instruments/BTC_USDT/depth'), 404, /BTC_USDT/);
    });
  });

  describe('GET /marketdata/instruments/{instrument}/history', () => {
    it.each(CANDLE_INTERVALS)('builds %s candles from the market trades', async (type) => {
      for (const instrument of ['btc_usdt', 'pepe_eth']) {
        const market = sandbox.exchange.market(instrument)!;
        const now = Date.now();
        // Not aligned to any bucket: the first bucket is cut by the range.
        const from = Math.floor((now - 40 * MINUTE) / 1000) * 1000 + 17_000;
        const to = Math.ceil((now + MINUTE) / 1000) * 1000;
        const trades = allTrades(market).filter((trade) => trade.time >= from && trade.time < to);
        expect(trades.length).toBeGreaterThan(0);
        const answer = await get(
          sandbox,
          `/marketdata/instruments/${instrument}/history?startDate=${queryDate(from)}&endDate=${queryDate(to)}&type=${type}`,
        );
        expect(answer.status).toBe(200);
        expect(answer.contentType).toMatch(/^application\/json/);
        expect(Object.keys(answer.body)).toEqual([
          'success',
          'instrument',
          'data',
          'startDateTime',
          'endDateTime',
        ]);
        expect(answer.body.success).toBe(true);
        expect(answer.body.instrument).toBe(instrument);
        expect(answer.body.startDateTime).toBe(`${queryDate(from)}Z`);
        expect(answer.body.endDateTime).toBe(`${queryDate(to)}Z`);
        expectCandlesMatch(answer.body, market, expectedCandles(trades, type));
      }
    });

    it('takes trades with startDate <= time < endDate, tolerating a fraction and a trailing Z', async () => {
      const market = sandbox.exchange.market('sol_eur')!;
      const trades = allTrades(market);
      const times = [...new Set(trades.map((trade) => trade.time))];
      expect(times.length).toBeGreaterThan(3);
      const from = times[times.length - 4];
      const to = times[times.length - 1]; // the trades at this time are excluded
      const path = (start: string, end: string) =>
        `/marketdata/instruments/sol_eur/history?type=1m&startDate=${start}&endDate=${end}`;
      const iso = (ms: number) => new Date(ms).toISOString();
      const answer = await get(sandbox, path(iso(from), iso(to)));
      expect(answer.status).toBe(200);
      const inRange = trades.filter((trade) => trade.time >= from && trade.time < to);
      expectCandlesMatch(answer.body, market, expectedCandles(inRange, '1m'));
      expect(answer.body.startDateTime).toBe(iso(from).replace('.000Z', 'Z'));
    });

    it('returns the most recent `count` candles when there are more', async () => {
      const market = sandbox.exchange.market('btc_usdt')!;
      const now = Date.now();
      const from = now - 2 * HOUR;
      const to = now + MINUTE;
      const all = expectedCandles(
        allTrades(market).filter((trade) => trade.time >= from && trade.time < to),
        '1m',
      );
      expect(all.length).toBeGreaterThan(5);
      const answer = await get(
        sandbox,
        `/marketdata/instruments/btc_usdt/history?startDate=${queryDate(from)}&endDate=${queryDate(to)}&type=1m&count=5`,
      );
      expect(answer.status).toBe(200);
      expectCandlesMatch(answer.body, market, all.slice(-5));
    });

    it('returns at most 1000 candles by default, the most recent ones', async () => {
      const market = busy.exchange.all()[0];
      const now = Date.now();
      const from = now - 2 * DAY;
      const to = now + MINUTE;
      const all = expectedCandles(allTrades(market), '1m');
      expect(all.length).toBeGreaterThan(1000);
      const answer = await get(
        busy,
        `/marketdata/instruments/${market.instrument}/history?startDate=${queryDate(from)}&endDate=${queryDate(to)}&type=1m`,
      );
      expect(answer.status).toBe(200);
      expectCandlesMatch(answer.body, market, all.slice(-1000));
    });

    it('answers an empty list for a range without trades', async () => {
      const answer = await get(
        sandbox,
        '/marketdata/instruments/btc_usdt/history?startDate=2001-01-01T00:00:00&endDate=2001-02-01T00:00:00&type=1d',
      );
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual([]);
    });

    it.each([
      ['no parameters', '', /startDate: is required[\s\S]*endDate: is required[\s\S]*type: is required/],
      ['a missing type', 'startDate=2024-01-01T00:00:00&endDate=2024-01-02T00:00:00', /^type: is required/],
      [
        'an unknown type',
        'startDate=2024-01-01T00:00:00&endDate=2024-01-02T00:00:00&type=4h',
        /^type: .*"4h"/,
      ],
      ['a bad date', 'startDate=yesterday&endDate=2024-01-02T00:00:00&type=1h', /^startDate: .*"yesterday"/],
      [
        'an impossible date',
        'startDate=2024-01-01T00:00:00&endDate=2023-02-29T00:00:00&type=1h',
        /^endDate: /,
      ],
      [
        'an inverted range',
        'startDate=2024-01-02T00:00:00&endDate=2024-01-01T00:00:00&type=1h',
        /^endDate: .*later/,
      ],
      ['count 0', 'startDate=2024-01-01T00:00:00&endDate=2024-01-02T00:00:00&type=1h&count=0', /^count: /],
      [
        'count 1001',
        'startDate=2024-01-01T00:00:00&endDate=2024-01-02T00:00:00&type=1h&count=1001',
        /^count: /,
      ],
      [
        'count abc',
        'startDate=2024-01-01T00:00:00&endDate=2024-01-02T00:00:00&type=1h&count=abc',
        /^count: /,
      ],
      [
        'a repeated type',
        'startDate=2024-01-01T00:00:00&endDate=2024-01-02T00:00:00&type=1h&type=1d',
        /^type: /,
      ],
    ])('answers 400 naming the parameter for %s', async (_, query, pattern) => {
      expectErrorBody(await get(sandbox, `/marketdata/instruments/btc_usdt/history?${query}`), 400, pattern);
    });

    it('answers 404 for an unknown instrument', async () => {
      const query = 'startDate=2024-01-01T00:00:00&endDate=2024-01-02T00:00:00&type=1h';
      expectErrorBody(
        await get(sandbox, `/marketdata/instruments/nope_usdt/history?${query}`),
        404,
        /nope_usdt/,
      );
    });
  });

  it('answers unknown REST paths with 404 and the error body', async () => {
    expectErrorBody(await get(sandbox, '/frontoffice/api/unknown'), 404, /\/frontoffice\/api\/unknown/);
    expectErrorBody(await get(sandbox, '/marketdata/instruments/btc_usdt'), 404, /Cannot GET/);
  });
});
