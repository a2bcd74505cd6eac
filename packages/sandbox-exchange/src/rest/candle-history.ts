import { JsonNumber, jsonNumber } from '../http/json-number';
import { buildCandles, Candle } from '../simulation/candles';
import { MarketSimulator } from '../simulation/market-simulator';
import { SandboxTrade } from '../simulation/sandbox-trade';
import { formatExchangeDate } from '../wire/exchange-date';
import { HistoryQuery } from './history-query';

export interface CandleView {
  readonly instrument: string;
  readonly start: string;
  readonly end: string;
  readonly low: JsonNumber;
  readonly high: JsonNumber;
  readonly volume: JsonNumber;
  readonly quoteVolume: JsonNumber;
  readonly open: JsonNumber;
  readonly close: JsonNumber;
}

/** The candle envelope of spec 2.3. */
export interface CandleHistoryView {
  readonly success: true;
  readonly instrument: string;
  readonly data: CandleView[];
  readonly startDateTime: string;
  readonly endDateTime: string;
}

/**
 * Candles of the trades in [from, to), oldest first, only for buckets that hold a trade. A bucket cut
 * by the range holds only the trades inside it. When there are more than `count`, the most recent
 * `count` are kept: a client paging backwards moves `endDate` to the first start it received.
 */
export function selectCandles(trades: readonly SandboxTrade[], query: HistoryQuery): Candle[] {
  const inRange = trades.filter((trade) => trade.time >= query.from && trade.time < query.to);
  const candles = buildCandles(inRange, query.interval);
  return candles.slice(Math.max(0, candles.length - query.count));
}

/** The `/history` answer of a market; `volume` in the base asset, `quoteVolume` exact price x amount. */
export function candleHistory(market: MarketSimulator, query: HistoryQuery): CandleHistoryView {
  const { instrument, priceScale, amountScale } = market.spec;
  // The log holds trades with from - 1 < time <= to - 1, i.e. from <= time < to for whole milliseconds.
  const trades = market.tradeLog.between(query.from - 1, query.to - 1);
  const price = (units: bigint) => jsonNumber(units, priceScale);
  return {
    success: true,
    instrument,
    data: selectCandles(trades, query).map((candle) => ({
      instrument,
      start: formatExchangeDate(candle.start),
      end: formatExchangeDate(candle.end),
      low: price(candle.low),
      high: price(candle.high),
      volume: jsonNumber(candle.volume, amountScale),
      quoteVolume: jsonNumber(candle.quoteVolume, priceScale + amountScale),
      open: price(candle.open),
      close: price(candle.close),
    })),
    startDateTime: formatExchangeDate(query.from),
    endDateTime: formatExchangeDate(query.to),
  };
}
