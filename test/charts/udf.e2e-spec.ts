import { chartSymbols } from '../../src/market/bars/chart-symbol';
import { ResponseContract } from '../support/response-contract';
import { bar, ChartStack, MINUTE, startChartStack } from './tradingview-http-stack';

/** 2026-11-26T10:00:00Z. */
const T0 = Date.UTC(2026, 10, 26, 10, 0);
const seconds = (ms: number) => ms / 1000;

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

describe("the Charting Library's UDF datafeed over HTTP", () => {
  let chart: ChartStack;
  let symbols: Map<string, string>;

  const get = async (path: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const response = await fetch(`${chart.url}${path}`, { headers });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  const json = async (path: string) => JSON.parse((await get(path)).text) as unknown;
  const expectError = async (path: string, message: RegExp) => {
    const answer = await get(path);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const body = JSON.parse(answer.text) as { s: string; errmsg: string };
    expect(body.s).toBe('error');
    expect(body.errmsg).toMatch(message);
  };

  beforeAll(async () => {
    chart = await startChartStack();
    symbols = chartSymbols(chart.markets);
    // Minutes 0..4, a gap of 5..9, then 10..14.
    const minutes = [0, 1, 2, 3, 4, 10, 11, 12, 13, 14];
    chart.known.set(
      'btc_usdt',
      minutes.map((m) => bar(T0 + m * MINUTE, '64950', '65000', '64900', `${64950 + m}`, '0.25')),
    );
  });
  afterAll(() => chart.close());

  it('/udf/config says what the datafeed supports', async () => {
    expect(await json('/udf/config')).toEqual({
      supported_resolutions: ['1', '5', '15', '30', '60', '240', '1D', '1W', '1M'],
      supports_search: true,
      supports_group_request: false,
      supports_marks: false,
      supports_timescale_marks: false,
      supports_time: true,
      exchanges: [
        { value: '', name: 'All Exchanges', desc: '' },
        { value: 'SANDBOX', name: 'SANDBOX', desc: 'SANDBOX' },
      ],
      symbols_types: [
        { name: 'All types', value: '' },
        { name: 'Crypto', value: 'crypto' },
      ],
    });
  });

  it("/udf/symbols gives a market's symbol information, by any of its names", async () => {
    const btc = chart.markets.find((market) => market.instrument === 'btc_usdt')!;
    const info = (await json('/udf/symbols?symbol=BTCUSDT')) as Record<string, unknown>;
    expect(info).toMatchObject({
      name: 'BTCUSDT',
      ticker: 'BTCUSDT',
      full_name: 'SANDBOX:BTCUSDT',
      type: 'crypto',
      session: '24x7',
      timezone: 'Etc/UTC',
      exchange: 'SANDBOX',
      listed_exchange: 'SANDBOX',
      minmov: 1,
      pricescale: 10 ** btc.priceScale,
      has_intraday: true,
      has_daily: true,
      has_weekly_and_monthly: true,
      supported_resolutions: ['1', '5', '15', '30', '60', '240', '1D', '1W', '1M'],
      intraday_multipliers: ['1', '5', '15', '30', '60', '240'],
      volume_precision: btc.amountScale,
      data_status: 'streaming',
      currency_code: 'USDT',
    });
    expect(info.description).toMatch(/ \/ /);
    for (const name of ['SANDBOX:BTCUSDT', 'btc_usdt', 'BTC-USDT', 'btcusdt'])
      expect(await json(`/udf/symbols?symbol=${name}`)).toEqual(info);
    await expectError('/udf/symbols?symbol=NOPE', /^unknown symbol "NOPE"$/);
    await expectError('/udf/symbols', /^symbol is required$/);
    await expectError('/udf/symbols?symbol=BTCUSDT&symbol=ETHUSDT', /^symbol must be given once$/);
    await expectError('/udf/symbols?symbol=DOGEUSDT', /^unknown symbol/);
  });

  it('/udf/search finds markets by symbol, instrument or asset, filtered by type, exchange and limit', async () => {
    const found = (await json('/udf/search?query=usdt&type=&exchange=&limit=30')) as { symbol: string }[];
    const expected = chart.markets
      .filter((market) => market.quoteAsset === 'usdt' || market.baseAsset === 'usdt')
      .map((market) => symbols.get(market.instrument));
    expect(found.map((entry) => entry.symbol)).toEqual(expected);
    expect(found[0]).toEqual({
      symbol: 'BTCUSDT',
      full_name: 'SANDBOX:BTCUSDT',
      description: expect.stringContaining(' / ') as string,
      exchange: 'SANDBOX',
      ticker: 'BTCUSDT',
      type: 'crypto',
    });
    expect(((await json('/udf/search?query=btc_usdt')) as { symbol: string }[]).map((e) => e.symbol)).toEqual(
      ['BTCUSDT'],
    );
    expect(await json('/udf/search?query=usdt&limit=1')).toHaveLength(1);
    expect(await json('/udf/search')).toHaveLength(chart.markets.length);
    expect(await json('/udf/search?query=btc&type=stock')).toEqual([]);
    expect(await json('/udf/search?query=btc&exchange=OTHER')).toEqual([]);
    expect(await json('/udf/search?query=btc&type=crypto&exchange=sandbox')).not.toEqual([]);
    expect(await json('/udf/search?query=nothing-like-it')).toEqual([]);
    await expectError('/udf/search?query=btc&limit=0', /^limit must be an integer from 1 to 100/);
    await expectError('/udf/search?query=btc&limit=many', /^limit must be/);
    await expectError('/udf/search?query=btc&query=eth', /^query must be given once$/);
  });

  it('/udf/history leaves out the bar starting at to, and asks for exactly [from, to)', async () => {
    const from = seconds(T0);
    const to = seconds(T0 + 2 * MINUTE);
    const body = (await json(`/udf/history?symbol=BTCUSDT&resolution=1&from=${from}&to=${to}`)) as {
      s: string;
      t: number[];
    };
    expect(chart.known.lastRead()).toEqual({
      instrument: 'btc_usdt',
      resolution: '1',
      query: { from: T0, to: T0 + 2 * MINUTE },
    });
    expect(body.s).toBe('ok');
    expect(body.t).toEqual([from, from + 60]);
    expect(await json(`/udf/history?symbol=BTCUSDT&resolution=1&from=${from}&to=${from}`)).toEqual({
      s: 'no_data',
    });
  });

  it('/udf/history takes countback over from', async () => {
    const to = seconds(T0 + 12 * MINUTE);
    const body = (await json(
      `/udf/history?symbol=BTCUSDT&resolution=1&from=${to - 60}&to=${to}&countback=4`,
    )) as { t: number[]; c: number[] };
    expect(body.t).toEqual([3, 4, 10, 11].map((m) => seconds(T0 + m * MINUTE)));
    expect(body.c).toEqual([3, 4, 10, 11].map((m) => 64950 + m));
    expect(chart.known.lastRead().query).toMatchObject({ to: T0 + 12 * MINUTE, countback: 4 });
  });

  it('/udf/history answers a gap with no_data and nextTime, and before all bars with no_data alone', async () => {
    const gap = seconds(T0 + 5 * MINUTE);
    const answer = await get(`/udf/history?symbol=BTCUSDT&resolution=1&from=${gap}&to=${gap + 300}`);
    expect(answer.text).toBe(`{"s":"no_data","nextTime":${seconds(T0 + 4 * MINUTE)}}`);
    expect(
      (await get(`/udf/history?symbol=BTCUSDT&resolution=1D&from=${seconds(T0) - 86_400}&to=${seconds(T0)}`))
        .text,
    ).toBe('{"s":"no_data"}');
  });

  it('/udf/history gives the same bytes and ETag for the same request', async () => {
    const path = `/udf/history?symbol=SANDBOX:BTCUSDT&resolution=1&from=${seconds(T0)}&to=${seconds(T0 + 15 * MINUTE)}`;
    const first = await get(path);
    const second = await get(path);
    expect(JSON.parse(first.text)).toMatchObject({ s: 'ok' });
    expect(second.text).toBe(first.text);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await get(path, { 'if-none-match': first.headers.get('etag')! })).status).toBe(304);
  });

  it.each([
    ['symbol=NOPE&resolution=1&from=0&to=60', /^unknown symbol "NOPE"$/],
    ['symbol=BTCUSDT&resolution=3&from=0&to=60', /^resolution must be one of/],
    ['symbol=BTCUSDT&resolution=1&from=61&to=60', /^from must not be after to/],
    ['symbol=BTCUSDT&resolution=1&from=0x10&to=60', /^from must be Unix seconds/],
    ['symbol=BTCUSDT&resolution=1&from=0&to=+60', /^to must be Unix seconds/],
    ['symbol=BTCUSDT&resolution=1&from=0&to=60&to=70', /^to must be given once$/],
    [
      'symbol=BTCUSDT&resolution=1&from=0&to=60&countback=10001',
      /^countback must be an integer from 1 to 10000/,
    ],
    ['symbol=BTCUSDT&resolution=1&to=60', /^from is required$/],
  ])('/udf/history?%s is an error naming the parameter', async (query, message) => {
    await expectError(`/udf/history?${query}`, message);
  });

  it("/udf/time is the server's clock in Unix seconds as plain text, never cached", async () => {
    const before = Math.floor(Date.now() / 1000);
    const answer = await get('/udf/time', { accept: 'text/plain' });
    const after = Math.floor(Date.now() / 1000);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.text).toMatch(/^\d+$/);
    expect(Number(answer.text)).toBeGreaterThanOrEqual(before);
    expect(Number(answer.text)).toBeLessThanOrEqual(after);
  });
  it('keeps the OpenAPI document in every kind of answer', async () => {
    const contract = new ResponseContract(JSON.parse((await get('/docs-json')).text));
    const from = seconds(T0);
    const calls: [string, string][] = [
      ['/udf/config', '/udf/config'],
      ['/udf/symbols', '/udf/symbols?symbol=BTCUSDT'],
      ['/udf/symbols', '/udf/symbols?symbol=NOPE'],
      ['/udf/search', '/udf/search?query=usdt'],
      ['/udf/search', '/udf/search?limit=0'],
      ['/udf/history', `/udf/history?symbol=BTCUSDT&resolution=1&from=${from}&to=${from + 900}`],
      ['/udf/history', `/udf/history?symbol=BTCUSDT&resolution=1&from=${from + 300}&to=${from + 600}`],
      ['/udf/history', `/udf/history?symbol=BTCUSDT&resolution=1&from=0&to=${from}`],
      ['/udf/history', '/udf/history?symbol=BTCUSDT&resolution=7&from=0&to=1'],
      ['/udf/time', '/udf/time'],
    ];
    const problems: Record<string, string[]> = {};
    for (const [path, url] of calls) {
      const found = contract.problems(path, await get(url));
      if (found.length > 0) problems[url] = found;
    }
    expect(problems).toEqual({});
  });
});
