import Big from 'big.js';
import { parse } from 'lossless-json';
import request from 'supertest';
import { TestStack } from '../support/start-test-stack';
import {
  closeSettledStack,
  fixed,
  FROZEN,
  HIDDEN,
  LISTED,
  NEVER_TRADED,
  Scales,
  startSettledStack,
} from './expected-figures';

type Row = Record<string, unknown>;
const upper = (instrument: string) => instrument.toUpperCase();
const queryDate = (ms: number) => new Date(ms).toISOString().slice(0, 19);

describe("the CoinMarketCap, CoinGecko and mirror formats agree with each other and with the exchange's listing", () => {
  let stack: TestStack;
  let scales: Map<string, Scales>;

  beforeAll(async () => {
    ({ stack, scales } = await startSettledStack());
  });
  afterAll(() => closeSettledStack(stack));

  const body = async (path: string) => (await request(stack.app.url).get(path).expect(200)).body;

  it('every market figure is the same in /summary, /ticker, /cmc/summary, /cmc/ticker and /coingecko/tickers; a market that never traded has a zero last in the first two and is absent from the others', async () => {
    const [summary, ticker, cmcSummary, cmcTicker, tickers] = await Promise.all([
      body('/summary'),
      body('/ticker'),
      body('/cmc/summary'),
      body('/cmc/ticker'),
      body('/coingecko/tickers'),
    ]);
    for (const instrument of LISTED) {
      const pair = upper(instrument);
      const listing = summary[pair];
      const cmc = (cmcSummary as Row[]).find((record) => record.trading_pairs === pair)!;
      const gecko = (tickers as Row[]).find((record) => record.ticker_id === pair)!;
      if (NEVER_TRADED.has(instrument)) {
        expect([listing.last, ticker[instrument].last_price]).toEqual([
          fixed('0', scales.get(instrument)!.priceScale),
          fixed('0', scales.get(instrument)!.priceScale),
        ]);
        expect([cmc, cmcTicker[pair], gecko]).toEqual([undefined, undefined, undefined]);
        expect(listing.isFrozen).toBe('1');
        continue;
      }
      const last = [
        listing.last,
        ticker[instrument].last_price,
        cmc.last_price,
        cmcTicker[pair].last_price,
        gecko.last_price,
      ];
      const base = [
        listing.baseVolume,
        ticker[instrument].base_volume,
        cmc.base_volume,
        cmcTicker[pair].base_volume,
        gecko.base_volume,
      ];
      const quote = [
        listing.quoteVolume,
        ticker[instrument].quote_volume,
        cmc.quote_volume,
        cmcTicker[pair].quote_volume,
        gecko.target_volume,
      ];
      for (const values of [last, base, quote]) expect(new Set(values).size).toBe(1);
      expect([cmc.highest_price_24h, gecko.high]).toEqual([listing.high24hr, listing.high24hr]);
      expect([cmc.lowest_price_24h, gecko.low]).toEqual([listing.low24hr, listing.low24hr]);
      expect([cmc.highest_bid, gecko.bid]).toEqual([listing.highestBid, listing.highestBid]);
      expect([cmc.lowest_ask, gecko.ask]).toEqual([listing.lowestAsk, listing.lowestAsk]);
      expect(cmc.price_change_percent_24h).toBe(listing.percentChange);
      const frozen = FROZEN.has(instrument);
      expect([listing.isFrozen, ticker[instrument].isFrozen, cmcTicker[pair].isFrozen]).toEqual(
        frozen ? ['1', '1', 1] : ['0', '0', 0],
      );
    }
  });

  it('/cmc/assets is /asset, and /coingecko/pairs names the markets /summary lists', async () => {
    expect(await body('/cmc/assets')).toEqual(await body('/asset'));
    const pairs = (await body('/coingecko/pairs')) as Row[];
    expect(pairs.map((pair) => pair.ticker_id)).toEqual(Object.keys(await body('/summary')));
  });

  it('the four order books are one book: listing, CoinMarketCap, CoinGecko and the mirror', async () => {
    for (const instrument of LISTED) {
      const { priceScale, amountScale } = scales.get(instrument)!;
      const [listing, cmc, gecko, depth] = await Promise.all([
        body(`/orderbook/${instrument}`),
        body(`/cmc/orderbook/${instrument}`),
        body(`/coingecko/orderbook?ticker_id=${upper(instrument)}`),
        request(stack.app.url).get(`/marketdata/instruments/${instrument}/depth`).expect(200),
      ]);
      expect(cmc).toEqual({ ...listing, timestamp: Number(listing.timestamp) });
      expect(gecko).toEqual({ ticker_id: upper(instrument), ...cmc });
      const mirror = parse(depth.text) as { bids: Row[]; asks: Row[] };
      const render = (side: Row[]) =>
        side.map((entry) => [
          fixed(String(entry.price), priceScale),
          fixed(String(entry.amount), amountScale),
        ]);
      expect(render(mirror.bids).reverse()).toEqual(listing.bids);
      expect(render(mirror.asks)).toEqual(listing.asks);
      expect(await body(`/cmc/orderbook/${instrument}?depth=20&level=2`)).toEqual({
        ...cmc,
        bids: cmc.bids.slice(0, 10),
        asks: cmc.asks.slice(0, 10),
      });
      expect(await body(`/orderbook/${instrument}?depth=20`)).toEqual({
        ...listing,
        bids: listing.bids.slice(0, 10),
        asks: listing.asks.slice(0, 10),
      });
    }
  });

  it('the trades are the same in /trades, /cmc/trades and /coingecko/historical_trades', async () => {
    for (const instrument of ['btc_usdt', 'pepe_eth', 'usdc_usdt', 'ltc_btc']) {
      const [listing, cmc, gecko] = await Promise.all([
        body(`/trades/${instrument}`),
        body(`/cmc/trades/${instrument}`),
        body(`/coingecko/historical_trades?ticker_id=${instrument}`),
      ]);
      expect(cmc).toEqual(
        (listing as Row[]).map((trade) => ({
          trade_id: Number(trade.tradeID),
          price: trade.price,
          base_volume: trade.base_volume,
          quote_volume: trade.quote_volume,
          timestamp: Number(trade.trade_timestamp),
          type: trade.type,
        })),
      );
      const bySide = (side: string) =>
        (cmc as Row[])
          .filter((trade) => trade.type === side)
          .map((trade) => ({
            trade_id: trade.trade_id,
            price: trade.price,
            base_volume: trade.base_volume,
            target_volume: trade.quote_volume,
            trade_timestamp: trade.timestamp,
            type: trade.type,
          }));
      expect(gecko).toEqual({ buy: bySide('buy'), sell: bySide('sell') });
    }
  });

  it("the mirror's candles over the 24 hours add up to the listed 24-hour volumes, high and low", async () => {
    const now = Date.now();
    const summary = await body('/summary');
    for (const instrument of LISTED) {
      const { priceScale, amountScale } = scales.get(instrument)!;
      const depth = await request(stack.app.url)
        .get(
          `/marketdata/instruments/${instrument}/history?startDate=${queryDate(now - 23 * 3_600_000)}` +
            `&endDate=${queryDate(now + 60_000)}&type=1h`,
        )
        .expect(200);
      const candles = (parse(depth.text) as { data: Row[] }).data;
      const sum = (field: string) =>
        candles.reduce((total, candle) => total.plus(String(candle[field])), new Big(0));
      const listed = summary[upper(instrument)];
      expect(fixed(sum('volume'), amountScale)).toBe(listed.baseVolume);
      expect(fixed(sum('quoteVolume'), priceScale)).toBe(listed.quoteVolume);
      if (candles.length > 0) {
        const highs = candles.map((candle) => new Big(String(candle.high)));
        const lows = candles.map((candle) => new Big(String(candle.low)));
        expect(
          fixed(
            highs.reduce((a, b) => (a.gt(b) ? a : b)),
            priceScale,
          ),
        ).toBe(listed.high24hr);
        expect(
          fixed(
            lows.reduce((a, b) => (a.lt(b) ? a : b)),
            priceScale,
          ),
        ).toBe(listed.low24hr);
        expect(fixed(String(candles[candles.length - 1].close), priceScale)).toBe(listed.last);
      } else {
        expect(listed.baseVolume).toMatch(/^0(\.0+)?$/);
      }
    }
  });

  it('the hidden market is in no aggregator format but is in the mirror with hidden 1', async () => {
    const hidden = upper(HIDDEN);
    expect(await body('/summary')).not.toHaveProperty(hidden);
    expect(await body('/cmc/ticker')).not.toHaveProperty(hidden);
    expect(((await body('/cmc/summary')) as Row[]).map((r) => r.trading_pairs)).not.toContain(hidden);
    expect(((await body('/coingecko/pairs')) as Row[]).map((r) => r.ticker_id)).not.toContain(hidden);
    expect(((await body('/coingecko/tickers')) as Row[]).map((r) => r.ticker_id)).not.toContain(hidden);
    const info = await request(stack.app.url).get('/frontoffice/api/info').expect(200);
    expect(info.body.pairs[HIDDEN].hidden).toBe(1);
  });
});
