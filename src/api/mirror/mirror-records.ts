import { Candle } from '../../market/candle-stats';
import { canonicalDecimal, DecimalValue, toDecimal, ZERO } from '../../market/decimal';
import { formatExchangeDate } from '../../market/exchange-date';
import { HistoryQuery } from '../../market/history-query';
import { JsonNumber, toJson } from '../../market/json-number';
import { MarketInfo } from '../../market/market-info';
import { BookView, PriceLevel } from '../../store/state-store';
import { WireRecord } from '../schema/wire-parts';
import { MirrorDepth, MirrorHistory, MirrorMarket } from './mirror-schemas';

/**
 * The exchange's own public REST bodies (spec 2.1-2.3): decimals are bare JSON numbers with their
 * exact digits, as the exchange writes them.
 */

/** `{ serverTime, pairs }` with `serverTime` in .NET ticks; `pairs` is already JSON (see pairsJson). */
export function exchangeInfoJson(serverTimeTicks: bigint, pairs: string): string {
  return `{"serverTime":${serverTimeTicks},"pairs":${pairs}}`;
}

/** Every market keyed by instrument, each as the exchange sent it, else as the gateway models it. */
export function pairsJson(markets: readonly MarketInfo[]): string {
  const entries = markets.map(
    (market) =>
      `${JSON.stringify(market.instrument)}:${market.exchangeRecord ?? toJson(marketRecord(market))}`,
  );
  return `{${entries.join(',')}}`;
}

/** A market record rebuilt from the modelled fields, in the field order of the exchange's captures. */
export function marketRecord(market: MarketInfo): WireRecord<typeof MirrorMarket> {
  return {
    baseAsset: market.baseAsset,
    quoteAsset: market.quoteAsset,
    minAmount: new JsonNumber(market.minAmount),
    priceDeviation: new JsonNumber(market.priceDeviation),
    hidden: market.hidden ? 1 : 0,
    makerFee: new JsonNumber(market.makerFee),
    takerFee: new JsonNumber(market.takerFee),
    priceScale: market.priceScale,
    amountScale: market.amountScale,
    createdAt: market.createdAt,
    updatedAt: market.updatedAt,
    status: market.status,
    side: market.side,
    isCustom: market.isCustom,
  };
}

function total(levels: readonly PriceLevel[]): JsonNumber {
  let sum: DecimalValue = ZERO;
  for (const [, amount] of levels) sum = sum.plus(toDecimal(amount));
  return new JsonNumber(canonicalDecimal(sum.toFixed()));
}

/** The REST snapshot of a book: both sides ascending by price (the best bid last), exact totals. */
export function depthRecord(instrument: string, book: BookView): WireRecord<typeof MirrorDepth> {
  const entry = ([price, amount]: PriceLevel) => ({
    amount: new JsonNumber(amount),
    price: new JsonNumber(price),
  });
  return {
    instrument,
    bids: [...book.bids].reverse().map(entry),
    asks: book.asks.map(entry),
    version: book.version,
    askTotalAmount: total(book.asks),
    bidTotalAmount: total(book.bids),
    snapshot: true,
  };
}

/** The candle envelope of `/history`; `volume` in the base asset, `quoteVolume` exact price x amount. */
export function historyRecord(
  instrument: string,
  query: HistoryQuery,
  candles: readonly Candle[],
): WireRecord<typeof MirrorHistory> {
  return {
    success: true,
    instrument,
    data: candles.map((candle) => ({
      instrument,
      start: formatExchangeDate(candle.start),
      end: formatExchangeDate(candle.end),
      low: new JsonNumber(candle.low),
      high: new JsonNumber(candle.high),
      volume: new JsonNumber(candle.volume),
      quoteVolume: new JsonNumber(candle.quoteVolume ?? '0'),
      open: new JsonNumber(candle.open),
      close: new JsonNumber(candle.close),
    })),
    startDateTime: formatExchangeDate(query.from),
    endDateTime: formatExchangeDate(query.to),
  };
}
