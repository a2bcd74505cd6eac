import { Candle } from '../../market/candle-stats';
import { toFixedScale } from '../../market/decimal';
import { JsonNumber, toJson } from '../../market/json-number';
import { MarketInfo } from '../../market/market-info';
import { PriceLevel } from '../../store/state-store';

/** The lines of `/tradingview/streaming`: compact JSON, decimals as bare numbers with the market's digits. */

const seconds = (ms: number): number => Math.floor(ms / 1000);
const atScale = (text: string, scale: number): JsonNumber => new JsonNumber(toFixedScale(text, scale));
const isZero = (text: string): boolean => !/[1-9]/.test(text);

/** A trade; undefined when its amount at the market's scale is 0 (TradingView takes only sizes above 0). */
export function tradeLine(
  symbol: string,
  market: MarketInfo,
  trade: { readonly price: string; readonly amount: string; readonly time: number },
): string | undefined {
  const size = toFixedScale(trade.amount, market.amountScale);
  if (isZero(size)) return undefined;
  return `${toJson({ id: symbol, p: atScale(trade.price, market.priceScale), t: seconds(trade.time), f: 't', s: new JsonNumber(size) })}\n`;
}

/** The best bid and ask at `time`; undefined unless both sides have a level. */
export function quoteLine(
  symbol: string,
  market: MarketInfo,
  time: number,
  bid: PriceLevel | undefined,
  ask: PriceLevel | undefined,
): string | undefined {
  if (!bid || !ask) return undefined;
  const { priceScale, amountScale } = market;
  return `${toJson({
    id: symbol,
    t: seconds(time),
    f: 'q',
    ap: atScale(ask[0], priceScale),
    as: atScale(ask[1], amountScale),
    bp: atScale(bid[0], priceScale),
    bs: atScale(bid[1], amountScale),
  })}\n`;
}

export function dailyBarLine(symbol: string, market: MarketInfo, bar: Candle): string {
  const { priceScale, amountScale } = market;
  return `${toJson({
    id: symbol,
    t: seconds(bar.start),
    f: 'd',
    o: atScale(bar.open, priceScale),
    h: atScale(bar.high, priceScale),
    l: atScale(bar.low, priceScale),
    c: atScale(bar.close, priceScale),
    v: atScale(bar.volume, amountScale),
  })}\n`;
}

export function heartbeatLine(now: number): string {
  return `{"f":"h","t":${seconds(now)}}\n`;
}
