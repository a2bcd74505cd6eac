import { isLosslessNumber, LosslessNumber, parse } from 'lossless-json';
import { Side } from '../src/engine/side';
import { formatUnits, parseUnits } from '../src/engine/units';
import { FAULT_NAMES } from '../src/faults/fault-catalog';
import { MarketSimulator } from '../src/simulation/market-simulator';
import { RunningSandbox } from '../src/start-sandbox';
import { startTestSandbox } from './support/start-test-sandbox';

/* eslint-disable @typescript-eslint/no-explicit-any -- bodies are checked field by field below */

jest.setTimeout(20_000);

const DAY = 86_400_000;

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
  /** Parsed without loss: JSON numbers are LosslessNumber. */
  readonly exact: any;
  /** Parsed with JSON.parse. */
  readonly body: any;
}

async function send(sandbox: RunningSandbox, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(sandbox.baseUrl + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    exact: parse(text),
    body: JSON.parse(text),
  };
}

const get = (sandbox: RunningSandbox, path: string) => send(sandbox, 'GET', path);
const post = (sandbox: RunningSandbox, path: string, body?: unknown) => send(sandbox, 'POST', path, body);

function numberText(value: unknown): string {
  if (!isLosslessNumber(value)) throw new Error(`expected a JSON number, got ${JSON.stringify(value)}`);
  return (value as LosslessNumber).value;
}

function expectErrorBody(answer: Answer, status: number, pattern: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.contentType).toMatch(/^application\/json/);
  expect(Object.keys(answer.body)).toEqual(['errors']);
  expect(answer.body.errors.length).toBeGreaterThan(0);
  for (const error of answer.body.errors) expect(Object.keys(error)).toEqual(['code', 'message']);
  expect(answer.body.errors.map((error: { message: string }) => error.message).join('\n')).toMatch(pattern);
  expect(answer.text).not.toMatch(/node_modules|\.ts:\d+|\n\s+at /);
}

/** The book of a truth or depth answer as `price amount` lines, in the order sent. */
function bookLines(entries: any[], market: MarketSimulator): string[] {
  return entries.map(
    (entry) =>
      `${parseUnits(numberText(entry.price), market.spec.priceScale)} ${parseUnits(numberText(entry.amount), market.spec.amountScale)}`,
  );
}

function engineLines(market: MarketSimulator, side: Side): string[] {
  const lines = [...market.engine.levels(side)].map((level) => `${level.price} ${level.amount}`);
  return side === Side.Buy ? lines.reverse() : lines;
}

function expectTruthOf(answer: Answer, market: MarketSimulator, before: number, after: number): void {
  expect(answer.status).toBe(200);
  expect(answer.contentType).toMatch(/^application\/json/);
  expect(Object.keys(answer.body)).toEqual(['book', 'trades']);
  const { book, trades } = answer.exact;
  expect(Object.keys(book)).toEqual([
    'instrument',
    'bids',
    'asks',
    'version',
    'askTotalAmount',
    'bidTotalAmount',
    'snapshot',
  ]);
  expect(book.instrument).toBe(market.instrument);
  expect(book.snapshot).toBe(true);
  expect(Number(numberText(book.version))).toBe(market.version);
  expect(bookLines(book.bids, market)).toEqual(engineLines(market, Side.Buy));
  expect(bookLines(book.asks, market)).toEqual(engineLines(market, Side.Sell));
  const { amountScale, priceScale } = market.spec;
  expect(parseUnits(numberText(book.bidTotalAmount), amountScale)).toBe(market.engine.totalAmount(Side.Buy));
  expect(parseUnits(numberText(book.askTotalAmount), amountScale)).toBe(market.engine.totalAmount(Side.Sell));

  const row = (fields: readonly unknown[]) => fields.join(' ');
  expect(new Set(trades.map((trade: any[]) => trade.length))).toEqual(new Set([11]));
  const received: string[] = trades.map((trade: any[]) => {
    const [id, instrumentId, quantity, price, maker, taker, time, direction, takerSide, block, client] =
      trade;
    return row([
      numberText(id),
      numberText(instrumentId),
      parseUnits(numberText(quantity), amountScale),
      parseUnits(numberText(price), priceScale),
      numberText(maker),
      numberText(taker),
      numberText(time),
      numberText(direction),
      numberText(takerSide),
      block,
      numberText(client),
    ]);
  });
  // The sandbox read its clock between `before` and `after`: trades newer than `after - 24h` must be
  // there, trades at or before `before - 24h` must not.
  const all = market.tradeLog.between(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const sure = all.filter((trade) => trade.time > after - DAY && trade.time <= before);
  const possible = all.filter((trade) => trade.time > before - DAY && trade.time <= after);
  const expected = (list: typeof all) =>
    list.map((trade) =>
      row([
        trade.id,
        trade.instrumentId,
        trade.amount,
        trade.price,
        trade.makerOrderId,
        trade.takerOrderId,
        trade.time,
        trade.direction,
        trade.takerSide,
        false,
        0,
      ]),
    );
  const possibleRows = expected(possible);
  const first = possibleRows.indexOf(received[0]);
  expect(received.length).toBeGreaterThan(0);
  expect(first).toBeGreaterThanOrEqual(0);
  expect(received).toEqual(possibleRows.slice(first, first + received.length)); // oldest first, none missing
  const receivedRows = new Set(received);
  expect(expected(sure).filter((line) => !receivedRows.has(line))).toEqual([]);
}

describe('sandbox control', () => {
  let sandbox: RunningSandbox;
  /** One market with 26 hours of history, so that some of its trades are older than 24 hours. */
  let old: RunningSandbox;

  beforeAll(async () => {
    [sandbox, old] = await Promise.all([
      startTestSandbox({ SANDBOX_FLOW_RATE: '0' }),
      startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_MARKET_COUNT: '1', SANDBOX_HISTORY_HOURS: '26' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([sandbox?.close(), old?.close()]);
  });

  describe('GET /sandbox/truth/{instrument}', () => {
    it.each(['btc_usdt', 'pepe_eth', 'shib_usdt'])(
      'sends the full book and the trades of %s as the market holds them',
      async (instrument) => {
        const market = sandbox.exchange.market(instrument)!;
        const before = Date.now();
        const answer = await get(sandbox, `/sandbox/truth/${instrument}`);
        expectTruthOf(answer, market, before, Date.now());
      },
    );

    it('writes 18-decimal trade amounts exactly', async () => {
      const market = sandbox.exchange.market('pepe_eth')!;
      const { text } = await get(sandbox, '/sandbox/truth/pepe_eth');
      const newest = market.tradeLog.last()!;
      const amount = formatUnits(newest.amount, 18);
      expect(text).toContain(
        `[${newest.id},${newest.instrumentId},${amount},${formatUnits(newest.price, 18)},`,
      );
    });

    it('keeps only the trades of the last 24 hours', async () => {
      const market = old.exchange.all()[0];
      const now = Date.now();
      expect(market.tradeLog.between(Number.MIN_SAFE_INTEGER, now - DAY - 60_000).length).toBeGreaterThan(0);
      const before = Date.now();
      const answer = await get(old, `/sandbox/truth/${market.instrument}`);
      expectTruthOf(answer, market, before, Date.now());
      const oldest = Number(numberText(answer.exact.trades[0][6]));
      expect(oldest).toBeGreaterThan(before - DAY);
    });

    it('answers 404 with the error body for an unknown instrument', async () => {
      expectErrorBody(await get(sandbox, '/sandbox/truth/none_usdt'), 404, /none_usdt/);
    });
  });

  describe('faults', () => {
    it('lists every fault, off, with a description', async () => {
      const answer = await get(sandbox, '/sandbox/faults');
      expect(answer.status).toBe(200);
      expect(answer.body.map((fault: { name: string }) => fault.name)).toEqual(FAULT_NAMES);
      for (const fault of answer.body) {
        expect(Object.keys(fault)).toEqual(['name', 'enabled', 'description']);
        expect(fault.enabled).toBe(false);
        expect(fault.description.length).toBeGreaterThan(10);
      }
    });

    it('switches a fault on with its parameters and off again', async () => {
      const on = await post(sandbox, '/sandbox/faults', {
        name: 'halt-market',
        enabled: true,
        instrument: 'eth_btc',
      });
      expect(on.status).toBe(200);
      expect(on.body).toEqual({
        name: 'halt-market',
        enabled: true,
        description: expect.any(String),
        params: { instrument: 'eth_btc' },
      });
      expect(sandbox.exchange.market('eth_btc')!.status).toBe('Halted');
      const listed = (await get(sandbox, '/sandbox/faults')).body.find(
        (fault: { name: string }) => fault.name === 'halt-market',
      );
      expect(listed).toEqual(on.body);

      const off = await post(sandbox, '/sandbox/faults', { name: 'halt-market', enabled: false });
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ name: 'halt-market', enabled: false, description: expect.any(String) });
      expect(sandbox.exchange.market('eth_btc')!.status).toBe('Open');
    });

    it('acts once for a pulse fault, which stays off', async () => {
      const answer = await post(sandbox, '/sandbox/faults', {
        name: 'hub-close',
        enabled: true,
        allowReconnect: true,
      });
      expect(answer.status).toBe(200);
      expect(answer.body.enabled).toBe(false);
    });

    it.each([
      ['an unknown name', { name: 'meteor', enabled: true }, /unknown fault "meteor"/],
      ['no name', { enabled: true }, /unknown fault/],
      ['no enabled', { name: 'silence' }, /"enabled" must be true or false/],
      ['a text enabled', { name: 'silence', enabled: 'yes' }, /"enabled" must be true or false/],
      ['a missing parameter', { name: 'burst', enabled: true }, /updatesPerSecond/],
      ['a bad probability', { name: 'rest-503', enabled: true, probability: 2 }, /probability/],
      ['an unknown market', { name: 'pause-market', enabled: true, instrument: 'zzz_usdt' }, /instrument/],
      ['an array', [{ name: 'silence', enabled: true }], /body: must be a JSON object/],
      ['malformed JSON', '{"name":', /JSON/],
    ])('answers 400 with the error body for %s', async (_, body, pattern) => {
      expectErrorBody(await post(sandbox, '/sandbox/faults', body), 400, pattern);
      const faults = (await get(sandbox, '/sandbox/faults')).body;
      expect(faults.filter((fault: { enabled: boolean }) => fault.enabled)).toEqual([]);
    });

    it('answers 415 with the error body for a body that is not JSON', async () => {
      const response = await fetch(`${sandbox.baseUrl}/sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: '<fault name="silence"/>',
      });
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({
        errors: [{ code: 'unsupported_media_type', message: expect.any(String) }],
      });
    });

    it('answers 400 for a missing body', async () => {
      const response = await fetch(`${sandbox.baseUrl}/sandbox/faults`, { method: 'POST' });
      expect(response.status).toBe(400);
      expect(Object.keys((await response.json()) as object)).toEqual(['errors']);
    });
  });

  describe('flow', () => {
    const versions = () => sandbox.exchange.all().map((market) => market.version);

    it('reports, sets and pauses the synthetic order flow', async () => {
      expect((await get(sandbox, '/sandbox/flow')).body).toEqual({ ratePerSecond: 0 });

      const before = versions();
      const set = await post(sandbox, '/sandbox/flow', { ratePerSecond: 50 });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ ratePerSecond: 50 });
      expect((await get(sandbox, '/sandbox/flow')).body).toEqual({ ratePerSecond: 50 });
      const deadline = Date.now() + 5000;
      while (sandbox.exchange.market('btc_usdt')!.version === before[0] && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(sandbox.exchange.market('btc_usdt')!.version).toBeGreaterThan(before[0]);

      const paused = await post(sandbox, '/sandbox/flow', { ratePerSecond: 0 });
      expect(paused.body).toEqual({ ratePerSecond: 0 });
      const still = versions();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(versions()).toEqual(still);
    });

    it.each([
      ['a negative rate', { ratePerSecond: -1 }],
      ['a text rate', { ratePerSecond: '5' }],
      ['null', { ratePerSecond: null }],
      ['no rate', {}],
      ['a rate beyond the maximum', { ratePerSecond: 100_001 }],
      ['an infinite rate', '{"ratePerSecond":1e400}'],
      ['an unknown field', { ratePerSecond: 1, rate: 2 }],
      ['a text body', '"fast"'],
    ])('answers 400 with the error body for %s and keeps the rate', async (_, body) => {
      expectErrorBody(await post(sandbox, '/sandbox/flow', body), 400, /ratePerSecond|rate|body/);
      expect(sandbox.exchange.flowRate).toBe(0);
    });
  });

  describe('POST /sandbox/markets/{instrument}/step', () => {
    it('runs the operations at once and answers the new version', async () => {
      const market = sandbox.exchange.market('sol_eur')!;
      const before = market.version;
      const answer = await post(sandbox, '/sandbox/markets/sol_eur/step', { count: 40 });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ instrument: 'sol_eur', version: market.version });
      expect(market.version).toBeGreaterThan(before);
      expect(market.version).toBeLessThanOrEqual(before + 40);
      const truthVersion = (await get(sandbox, '/sandbox/truth/sol_eur')).body.book.version;
      expect(truthVersion).toBe(market.version);
    });

    it('moves a market that the flow leaves alone, such as a halted one', async () => {
      const market = sandbox.exchange.market('ltc_btc')!;
      expect(market.status).toBe('Halted');
      const before = market.version;
      expect(
        (await post(sandbox, '/sandbox/markets/ltc_btc/step', { count: 10 })).body.version,
      ).toBeGreaterThan(before);
    });

    it.each([
      ['count 0', { count: 0 }],
      ['a negative count', { count: -3 }],
      ['a fractional count', { count: 1.5 }],
      ['a text count', { count: '10' }],
      ['no count', {}],
      ['a count beyond the maximum', { count: 100_001 }],
      ['an unknown field', { count: 1, steps: 2 }],
    ])('answers 400 with the error body for %s', async (_, body) => {
      const version = sandbox.exchange.market('sol_eur')!.version;
      expectErrorBody(await post(sandbox, '/sandbox/markets/sol_eur/step', body), 400, /count|steps/);
      expect(sandbox.exchange.market('sol_eur')!.version).toBe(version);
    });

    it('answers 404 for an unknown instrument', async () => {
      expectErrorBody(await post(sandbox, '/sandbox/markets/none_usdt/step', { count: 1 }), 404, /none_usdt/);
    });
  });

  it('reports REST call counts per family', async () => {
    const answer = await get(sandbox, '/sandbox/stats');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['frontoffice', 'marketdata']);
    for (const family of Object.values(answer.body)) {
      expect(Object.keys(family as object)).toEqual(['served', 'limited', 'failed']);
      for (const count of Object.values(family as object)) expect(Number.isInteger(count)).toBe(true);
    }
  });

  it.each([
    ['GET', '/sandbox/nothing'],
    ['GET', '/nothing/at/all'],
    ['POST', '/frontoffice/api/info'],
    ['DELETE', '/sandbox/faults'],
    ['GET', '/sandbox/markets/btc_usdt/step'],
  ])('answers %s %s with 404 and the error body', async (method, path) => {
    expectErrorBody(await send(sandbox, method, path), 404, /Cannot/);
  });
});
