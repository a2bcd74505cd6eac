import { LosslessNumber, parse } from 'lossless-json';
import { chartSymbols } from '../../src/market/bars/chart-symbol';
import { MarketInfo } from '../../src/market/market-info';
import { ResponseContract } from '../support/response-contract';
import { bar, ChartStack, MINUTE, startChartStack } from './tradingview-http-stack';

const TYPES = [
  'stock',
  'fund',
  'dr',
  'right',
  'bond',
  'warrant',
  'structured',
  'index',
  'forex',
  'futures',
  'crypto',
];
/** 2026-11-26T10:00:00Z. */
const T0 = Date.UTC(2026, 10, 26, 10, 0);
const seconds = (ms: number) => ms / 1000;

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

describe("TradingView's data integration over HTTP", () => {
  let chart: ChartStack;
  let btc: MarketInfo;
  let pepe: MarketInfo;

  const get = async (path: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const response = await fetch(`${chart.url}${path}`, { headers });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  const json = async (path: string) => JSON.parse((await get(path)).text) as Record<string, unknown>;
  const history = (query: string) => get(`/tradingview/history?${query}`);

  beforeAll(async () => {
    chart = await startChartStack();
    btc = chart.markets.find((market) => market.instrument === 'btc_usdt')!;
    pepe = chart.markets.find((market) => market.instrument === 'pepe_eth')!;
    // Minutes 0, 1, 2, then a gap (3, 4), then 5..59: a bar for every minute with a trade.
    const minutes = [0, 1, 2, ...Array.from({ length: 55 }, (_, i) => i + 5)];
    chart.known.set(
      'btc_usdt',
      minutes.map((m) => bar(T0 + m * MINUTE, '64950.1', '65023', '64941.25', `${64946 + m}`, '0.5')),
    );
    chart.known.set('pepe_eth', [
      bar(
        T0,
        '0.000000004321987654',
        '0.000000004321987655',
        '0.000000004321987653',
        '0.000000004321987654',
        '123456789.123456789012345678',
      ),
    ]);
  });
  afterAll(() => chart.close());

  describe('/tradingview/symbol_info (symbolsResponseFieldsCorrectness)', () => {
    it('is a 200 of application/json with s ok and one entry per listed market', async () => {
      const answer = await get('/tradingview/symbol_info');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('application/json');
      const info = JSON.parse(answer.text) as Record<string, unknown>;
      expect(info.s).toBe('ok');
      const symbols = chartSymbols(chart.markets);
      expect(info.symbol).toEqual(chart.markets.map((market) => symbols.get(market.instrument)));
      expect((info.symbol as string[]).every((symbol) => /^[A-Z0-9._]+$/.test(symbol))).toBe(true);
      expect(new Set(info.symbol as string[]).size).toBe(chart.markets.length);
      expect(info.symbol).not.toContain('DOGEUSDT');
      for (const field of [
        'ticker',
        'description',
        'pricescale',
        'currency',
        'base-currency',
        'volume-precision',
      ])
        expect((info[field] as unknown[]).length).toBe(chart.markets.length);
      expect(info.ticker).toEqual(info.symbol);
    });

    it('has every field of the data test in its type and rule', async () => {
      const info = await json('/tradingview/symbol_info');
      const descriptions = info.description as unknown[];
      expect(
        descriptions.every((description) => typeof description === 'string' && description.includes(' / ')),
      ).toBe(true);
      for (const field of ['exchange-listed', 'exchange-traded']) {
        expect(info[field]).toBe('SANDBOX');
        expect(info[field]).toBe((info[field] as string).toUpperCase());
      }
      expect(info.minmovement).toBe(1);
      expect(info.minmovement2).toBe(0);
      expect(info.pricescale).toEqual(chart.markets.map((market) => 10 ** market.priceScale));
      for (const scale of info.pricescale as number[]) {
        expect(Number.isInteger(scale)).toBe(true);
        expect(String(scale)).toMatch(/^10*$/);
      }
      expect(info.currency).toEqual(chart.markets.map((market) => market.quoteAsset.toUpperCase()));
      expect(info['base-currency']).toEqual(chart.markets.map((market) => market.baseAsset.toUpperCase()));
      expect(TYPES).toContain(info.type);
      expect(info.type).toBe('crypto');
      expect(info.timezone).toBe('Etc/UTC');
      expect(() => new Intl.DateTimeFormat('en', { timeZone: info.timezone as string })).not.toThrow();
      expect(info['session-regular']).toBe('24x7');
      expect(info['has-intraday']).toBe(true);
      expect(info['has-daily']).toBe(true);
      expect(info['has-weekly-and-monthly']).toBe(true);
      expect(info['supported-resolutions']).toEqual(['1', '5', '15', '30', '60', '240', '1D', '1W', '1M']);
      expect(info['intraday-multipliers']).toEqual(['1']);
      expect(info['volume-precision']).toEqual(chart.markets.map((market) => market.amountScale));
      expect(info['bar-source']).toBe('trade');
      expect(info['bar-transform']).toBe('none');
      expect(info['bar-fillgaps']).toBe(false);
      expect((info.ticker as string[]).every((ticker) => !ticker.includes(','))).toBe(true);
    });

    it('names the exchange as CHARTS_EXCHANGE_NAME says', async () => {
      const named = await startChartStack({ CHARTS_EXCHANGE_NAME: 'ACME' });
      try {
        const info = JSON.parse(await (await fetch(`${named.url}/tradingview/symbol_info`)).text()) as Record<
          string,
          unknown
        >;
        expect(info['exchange-listed']).toBe('ACME');
        expect(info['exchange-traded']).toBe('ACME');
      } finally {
        await named.close();
      }
    });
  });

  describe('/tradingview/history', () => {
    it('includes both boundaries, asks for exactly those milliseconds, times in seconds', async () => {
      const from = seconds(T0);
      const to = seconds(T0 + 2 * MINUTE);
      const body = JSON.parse(
        (await history(`symbol=BTCUSDT&resolution=1&from=${from}&to=${to}`)).text,
      ) as Record<string, unknown>;
      expect(chart.known.lastRead()).toEqual({
        instrument: 'btc_usdt',
        resolution: '1',
        query: { from: T0, to: T0 + 2 * MINUTE + 1 },
      });
      expect(body.s).toBe('ok');
      expect(body.t).toEqual([from, from + 60, from + 120]);
      const after = JSON.parse(
        (await history(`symbol=BTCUSDT&resolution=1&from=${from + 1}&to=${to - 1}`)).text,
      ) as Record<string, unknown>;
      expect(after.t).toEqual([from + 60]);
    });

    it('writes prices at the price scale and volumes at the amount scale as exact JSON numbers', async () => {
      const from = seconds(T0);
      const text = (await history(`symbol=BTCUSDT&resolution=1&from=${from}&to=${from}`)).text;
      const fixed = (value: string, scale: number) => {
        const [whole, fraction = ''] = value.split('.');
        return scale === 0 ? whole : `${whole}.${fraction.padEnd(scale, '0')}`;
      };
      expect(text).toBe(
        `{"s":"ok","t":[${from}],"o":[${fixed('64950.1', btc.priceScale)}],"h":[${fixed('65023', btc.priceScale)}],` +
          `"l":[${fixed('64941.25', btc.priceScale)}],"c":[${fixed('64946', btc.priceScale)}],"v":[${fixed('0.5', btc.amountScale)}]}`,
      );
      const pepeText = (await history(`symbol=pepe_eth&resolution=1&from=${from}&to=${from}`)).text;
      const exact = parse(pepeText) as Record<string, LosslessNumber[]>;
      expect(exact.o[0].value).toBe(fixed('0.000000004321987654', pepe.priceScale));
      expect(exact.v[0].value).toBe(fixed('123456789.123456789012345678', pepe.amountScale));
    });

    it('answers from == to with the one bar starting then (historyFromEqTo)', async () => {
      const time = seconds(T0 + 7 * MINUTE);
      const body = JSON.parse(
        (await history(`symbol=BTCUSDT&resolution=1&from=${time}&to=${time}`)).text,
      ) as Record<string, unknown>;
      expect(body.t).toEqual([time]);
      expect(body.c).toEqual([64946 + 7]);
    });

    it('gives 50 bars for to = a minute - 1 s, from = to - 50 minutes + 1 s (historyOutsideBarsInclusion)', async () => {
      const to = seconds(T0 + 59 * MINUTE) - 1;
      const from = to - 50 * 60 + 1;
      const body = JSON.parse((await history(`symbol=BTCUSDT&resolution=1&from=${from}&to=${to}`)).text) as {
        t: number[];
      };
      expect(body.t.length).toBe(50);
      expect(body.t[0]).toBe(from);
      expect(body.t[49]).toBe(seconds(T0 + 58 * MINUTE));
    });

    it('gives the newest countback bars up to to, whatever from says (historyCountbackMinutes)', async () => {
      const to = seconds(T0 + 10 * MINUTE);
      const body = JSON.parse(
        (await history(`symbol=BTCUSDT&resolution=1&from=${to}&to=${to}&countback=5`)).text,
      ) as { t: number[] };
      expect(body.t).toEqual([1, 2, 5, 6, 7, 8, 9, 10].slice(-5).map((m) => seconds(T0 + m * MINUTE)));
      expect(chart.known.lastRead().query).toMatchObject({ to: T0 + 10 * MINUTE + 1, countback: 5 });
    });

    it('answers a gap with no_data and nb, the newest older bar (historyNoDataWithNb)', async () => {
      const gap = seconds(T0 + 3 * MINUTE);
      const answer = await history(`symbol=BTCUSDT&resolution=1&from=${gap}&to=${gap + 119}`);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(`{"s":"no_data","nb":${seconds(T0 + 2 * MINUTE)}}`);
    });

    it('answers before the first bar with no_data without nb (historyBeyondLeftBoundary)', async () => {
      const to = seconds(T0) - 600;
      expect((await history(`symbol=BTCUSDT&resolution=1&from=${to - 86_400}&to=${to}`)).text).toBe(
        '{"s":"no_data"}',
      );
      // From 1800 on, as TradingView asks without a boundary.
      expect((await history(`symbol=BTCUSDT&resolution=1D&from=-5364662400&to=${to}`)).text).toBe(
        '{"s":"no_data"}',
      );
      expect(chart.known.lastRead()).toMatchObject({ resolution: '1D', query: { from: -5364662400000 } });
    });

    it('gives the same bytes and ETag for the same request, and a 304 to If-None-Match (historyRepeatability)', async () => {
      const query = `symbol=BTCUSDT&resolution=1&from=${seconds(T0)}&to=${seconds(T0 + 59 * MINUTE)}`;
      const first = await history(query);
      const second = await history(query);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(first.headers.get('cache-control')).toBe('public, max-age=1');
      const again = await get(`/tradingview/history?${query}`, {
        'if-none-match': first.headers.get('etag')!,
      });
      expect(again.status).toBe(304);
      // Another name of the same market gives the same body.
      expect((await history(query.replace('BTCUSDT', 'BTC-usdt'))).text).toBe(first.text);
    });

    it.each([
      ['symbol=NOPE&resolution=1&from=0&to=60', /^unknown symbol "NOPE"$/],
      ['resolution=1&from=0&to=60', /^symbol is required$/],
      [
        'symbol=BTCUSDT&resolution=2&from=0&to=60',
        /^resolution must be one of 1, 5, 15, 30, 60, 240, 1D, 1W, 1M/,
      ],
      ['symbol=BTCUSDT&from=0&to=60', /^resolution is required$/],
      ['symbol=BTCUSDT&resolution=1&from=120&to=60', /^from must not be after to/],
      ['symbol=BTCUSDT&resolution=1&from=abc&to=60', /^from must be Unix seconds, an integer, got "abc"$/],
      ['symbol=BTCUSDT&resolution=1&from=1.5&to=60', /^from must be Unix seconds/],
      ['symbol=BTCUSDT&resolution=1&from=0&to=1e9', /^to must be Unix seconds/],
      [
        'symbol=BTCUSDT&resolution=1&from=0&to=99999999999999999999',
        /^to must be within 8640000000000 seconds of 1970/,
      ],
      ['symbol=BTCUSDT&resolution=1&from=0', /^to is required$/],
      ['symbol=BTCUSDT&symbol=ETHUSDT&resolution=1&from=0&to=60', /^symbol must be given once$/],
      ['symbol=BTCUSDT&resolution=1&from=0&from=1&to=60', /^from must be given once$/],
      [
        'symbol=BTCUSDT&resolution=1&from=0&to=60&countback=0',
        /^countback must be an integer from 1 to 10000/,
      ],
      ['symbol=BTCUSDT&resolution=1&from=0&to=60&countback=x', /^countback must be/],
    ])('answers %s with HTTP 200 and s error naming the parameter', async (query, message) => {
      const answer = await history(query);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('content-type')).toContain('application/json');
      const body = JSON.parse(answer.text) as { s: string; errmsg: string };
      expect(Object.keys(body)).toEqual(['s', 'errmsg']);
      expect(body.s).toBe('error');
      expect(body.errmsg).toMatch(message);
    });
  });
  it('keeps the OpenAPI document in every kind of answer: markets, bars, no_data with and without nb, errors', async () => {
    const contract = new ResponseContract(JSON.parse((await get('/docs-json')).text));
    const from = seconds(T0);
    const calls: [string, string][] = [
      ['/tradingview/symbol_info', '/tradingview/symbol_info'],
      [
        '/tradingview/history',
        `/tradingview/history?symbol=BTCUSDT&resolution=1&from=${from}&to=${from + 3600}`,
      ],
      ['/tradingview/history', `/tradingview/history?symbol=pepe_eth&resolution=1D&from=${from}&to=${from}`],
      [
        '/tradingview/history',
        `/tradingview/history?symbol=BTCUSDT&resolution=1&from=${from + 180}&to=${from + 200}`,
      ],
      ['/tradingview/history', `/tradingview/history?symbol=BTCUSDT&resolution=1&from=0&to=${from - 1}`],
      ['/tradingview/history', '/tradingview/history?symbol=NOPE&resolution=1&from=0&to=1'],
    ];
    const problems: Record<string, string[]> = {};
    for (const [path, url] of calls) {
      const found = contract.problems(path, await get(url));
      if (found.length > 0) problems[url] = found;
    }
    expect(problems).toEqual({});
  });
});
