import Big from 'big.js';
import request from 'supertest';
import { TestStack } from '../support/start-test-stack';
import { Truth, TruthTrade } from '../support/truth';
import {
  expectBestFirst,
  expectedFigures,
  fixed,
  HIDDEN,
  LISTED,
  PLAIN,
  PRICED,
  renderLevels,
  Scales,
  closeSettledStack,
  startSettledStack,
} from './expected-figures';

const upper = (instrument: string) => instrument.toUpperCase();

interface HistoricalTrades {
  buy: Record<string, unknown>[];
  sell: Record<string, unknown>[];
}

describe('CoinGecko endpoints over a gateway fed by the sandbox', () => {
  let stack: TestStack;
  let scales: Map<string, Scales>;
  let truths: Map<string, Truth>;

  beforeAll(async () => {
    ({ stack, truths, scales } = await startSettledStack());
  });
  afterAll(() => closeSettledStack(stack));

  const get = (path: string) => request(stack.app.url).get(path);
  const want = (instrument: string) =>
    expectedFigures(truths.get(instrument)!, scales.get(instrument)!, Date.now());

  /** A trade as CoinGecko's historical_trades must publish it. */
  const published = (instrument: string, trade: TruthTrade) => {
    const { priceScale, amountScale } = scales.get(instrument)!;
    return {
      trade_id: Number(trade.id),
      price: fixed(trade.price, priceScale),
      base_volume: fixed(trade.amount, amountScale),
      target_volume: fixed(new Big(trade.price).times(trade.amount), priceScale),
      trade_timestamp: trade.time,
      type: trade.side,
    };
  };
  /** The expected `{ buy, sell }` of the trades of the window that pass `keep`, newest first. */
  const split = (instrument: string, keep: (trade: TruthTrade) => boolean = () => true) => {
    const newestFirst = want(instrument).window.slice().reverse().filter(keep);
    return {
      buy: newestFirst.filter((trade) => trade.side === 'buy').map((trade) => published(instrument, trade)),
      sell: newestFirst.filter((trade) => trade.side === 'sell').map((trade) => published(instrument, trade)),
    };
  };
  const historical = async (query: string): Promise<HistoricalTrades> =>
    (await get(`/coingecko/historical_trades?${query}`).expect(200)).body;

  it('/coingecko/pairs lists every visible market, sorted, quote asset as target', async () => {
    const response = await get('/coingecko/pairs').expect(200).expect('content-type', /json/);
    expect(response.body).toEqual(
      LISTED.map((instrument) => {
        const [base, target] = upper(instrument).split('_');
        return { ticker_id: upper(instrument), base, target };
      }),
    );
  });

  it('/coingecko/tickers gives the truth figures of every visible market with a last price', async () => {
    const response = await get('/coingecko/tickers').expect(200);
    expect(response.body.map((ticker: { ticker_id: string }) => ticker.ticker_id)).toEqual(PRICED.map(upper));
    for (const ticker of response.body as Record<string, string>[]) {
      const instrument = ticker.ticker_id.toLowerCase();
      const [base, target] = ticker.ticker_id.split('_');
      const figures = want(instrument);
      expect(ticker).toEqual({
        ticker_id: upper(instrument),
        base_currency: base,
        target_currency: target,
        last_price: figures.lastTraded,
        base_volume: figures.baseVolume,
        target_volume: figures.quoteVolume,
        bid: figures.bestBid,
        ask: figures.bestAsk,
        high: figures.high,
        low: figures.low,
      });
      for (const field of ['last_price', 'base_volume', 'target_volume', 'bid', 'ask', 'high', 'low']) {
        expect(ticker[field]).toMatch(PLAIN);
      }
    }
    const pepe = (response.body as Record<string, string>[]).find(
      (ticker) => ticker.ticker_id === 'PEPE_ETH',
    )!;
    for (const field of ['last_price', 'base_volume', 'target_volume', 'bid', 'ask', 'high', 'low']) {
      expect(pepe[field]).toMatch(/^\d+\.\d{18}$/);
    }
  });

  it('/coingecko/orderbook gives the truth book with its ticker_id and a millisecond timestamp', async () => {
    for (const instrument of LISTED) {
      const truth = truths.get(instrument)!;
      const response = await get(`/coingecko/orderbook?ticker_id=${instrument}`).expect(200);
      expect(Object.keys(response.body)).toEqual(['ticker_id', 'timestamp', 'bids', 'asks']);
      expect(response.body.ticker_id).toBe(upper(instrument));
      expect(Number.isInteger(response.body.timestamp)).toBe(true);
      expect(String(response.body.timestamp)).toMatch(/^\d{13}$/);
      expect(response.body.bids).toEqual(renderLevels(truth.bids, scales.get(instrument)!));
      expect(response.body.asks).toEqual(renderLevels(truth.asks, scales.get(instrument)!));
      expectBestFirst(response.body.bids, response.body.asks);
    }
  });

  it('/coingecko/orderbook honours depth, needs ticker_id and refuses junk', async () => {
    const full = (await get('/coingecko/orderbook?ticker_id=PEPE_ETH').expect(200)).body;
    const hundred = (await get('/coingecko/orderbook?ticker_id=pepe-eth&depth=100').expect(200)).body;
    expect(hundred.bids).toEqual(full.bids.slice(0, 50));
    expect(hundred.asks).toEqual(full.asks.slice(0, 50));
    expect(hundred.ticker_id).toBe('PEPE_ETH');
    expect((await get('/coingecko/orderbook?ticker_id=Pepe_Eth&depth=0').expect(200)).body).toEqual(full);
    const missing = await get('/coingecko/orderbook?depth=10').expect(400);
    expect(missing.body).toEqual({ errors: [{ code: 'missing_ticker_id', message: expect.any(String) }] });
    for (const query of [
      'ticker_id=',
      'ticker_id=btc_usdt&ticker_id=eth_btc',
      'ticker_id=btc_usdt&depth=3',
      'ticker_id=btc_usdt&depth=x',
      'ticker_id=btc_usdt&depth=-10',
    ]) {
      const response = await get(`/coingecko/orderbook?${query}`).expect(400);
      expect(response.body.errors).toEqual([
        { code: expect.stringMatching(/^(missing|invalid)_/), message: expect.any(String) },
      ]);
    }
    for (const ticker of [HIDDEN, 'nope_nope', 'BTCUSDT']) {
      const response = await get(`/coingecko/orderbook?ticker_id=${ticker}`).expect(404);
      expect(response.body).toEqual({
        errors: [{ code: 'unknown_instrument', message: expect.any(String) }],
      });
    }
  });

  it('/coingecko/historical_trades gives every trade of the window by taker side, newest first', async () => {
    for (const instrument of ['btc_usdt', 'pepe_eth', 'ltc_btc']) {
      const response = await get(`/coingecko/historical_trades?ticker_id=${upper(instrument)}`).expect(200);
      expect(Object.keys(response.body)).toEqual(['buy', 'sell']);
      expect(response.body).toEqual(split(instrument));
      const ids = [...response.text.matchAll(/"trade_id":([^,]+),/g)].map((match) => match[1]);
      expect(ids.sort()).toEqual(
        want(instrument)
          .window.map((trade) => trade.id)
          .sort(),
      );
      for (const side of ['buy', 'sell'] as const) {
        for (const trade of response.body[side] as Record<string, string>[]) {
          expect(trade.price).toMatch(PLAIN);
          expect(trade.base_volume).toMatch(PLAIN);
          expect(trade.target_volume).toMatch(PLAIN);
          expect(String(trade.trade_timestamp)).toMatch(/^\d{13}$/);
        }
      }
    }
    const btc = split('btc_usdt');
    expect(btc.buy.length).toBeGreaterThan(0);
    expect(btc.sell.length).toBeGreaterThan(0);
  });

  it('/coingecko/historical_trades filters by type, limit and an inclusive time range', async () => {
    const newestFirst = want('btc_usdt').window.slice().reverse();
    expect(await historical('ticker_id=btc_usdt&type=buy')).toEqual({ ...split('btc_usdt'), sell: [] });
    expect(await historical('ticker_id=btc_usdt&type=sell')).toEqual({ ...split('btc_usdt'), buy: [] });
    expect(await historical('ticker_id=btc_usdt&limit=0')).toEqual(split('btc_usdt'));

    const newestFive = new Set(newestFirst.slice(0, 5).map((trade) => trade.id));
    expect(await historical('ticker_id=btc_usdt&limit=5')).toEqual(
      split('btc_usdt', (trade) => newestFive.has(trade.id)),
    );
    const newestSells = newestFirst.filter((trade) => trade.side === 'sell').slice(0, 3);
    expect((await historical('ticker_id=btc_usdt&type=sell&limit=3')).sell).toEqual(
      newestSells.map((trade) => published('btc_usdt', trade)),
    );

    // Bounds at the times of real trades, so that inclusiveness shows.
    const from = newestFirst[Math.floor(newestFirst.length * 0.7)].time;
    const to = newestFirst[Math.floor(newestFirst.length * 0.3)].time;
    expect(from).toBeLessThan(to);
    const between = (trade: TruthTrade) => trade.time >= from && trade.time <= to;
    expect(await historical(`ticker_id=btc_usdt&start_time=${from}&end_time=${to}`)).toEqual(
      split('btc_usdt', between),
    );
    expect(await historical(`ticker_id=btc_usdt&start_time=${from + 1}&end_time=${to - 1}`)).toEqual(
      split('btc_usdt', (trade) => trade.time > from && trade.time < to),
    );
    expect(await historical(`ticker_id=btc_usdt&start_time=${to}`)).toEqual(
      split('btc_usdt', (trade) => trade.time >= to),
    );
    expect(await historical(`ticker_id=btc_usdt&end_time=${from}`)).toEqual(
      split('btc_usdt', (trade) => trade.time <= from),
    );
    // Seconds cover their whole second.
    const [fromSecond, toSecond] = [Math.floor(from / 1000), Math.floor(to / 1000)];
    expect(await historical(`ticker_id=btc_usdt&start_time=${fromSecond}&end_time=${toSecond}`)).toEqual(
      split('btc_usdt', (trade) => trade.time >= fromSecond * 1000 && trade.time <= toSecond * 1000 + 999),
    );
    expect(await historical(`ticker_id=btc_usdt&start_time=${Date.now() + 60_000}`)).toEqual({
      buy: [],
      sell: [],
    });
  });

  it('/coingecko/historical_trades refuses junk parameters with 400 and the error body', async () => {
    for (const query of [
      '',
      'type=buy',
      'ticker_id=btc_usdt&type=both',
      'ticker_id=btc_usdt&type=buy&type=sell',
      'ticker_id=btc_usdt&limit=-1',
      'ticker_id=btc_usdt&limit=ten',
      'ticker_id=btc_usdt&limit=1.5',
      'ticker_id=btc_usdt&start_time=yesterday',
      'ticker_id=btc_usdt&end_time=2024-05-01T00:00:00Z',
      'ticker_id=btc_usdt&start_time=-5',
      'ticker_id=btc_usdt&start_time=1700000000001&end_time=1700000000000',
    ]) {
      const response = await get(`/coingecko/historical_trades?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(response.body).toEqual({
        errors: [{ code: expect.stringMatching(/^(missing|invalid)_/), message: expect.any(String) }],
      });
    }
    for (const ticker of [HIDDEN, 'nope_nope']) {
      await get(`/coingecko/historical_trades?ticker_id=${ticker}`).expect(404);
    }
  });
});
