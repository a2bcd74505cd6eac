import { parseUnits } from '../engine/units';
import { JsonNumber, jsonNumber } from '../http/json-number';
import { MarketSideMode, MarketStatus } from '../market/market-spec';
import { MarketSimulator } from '../simulation/market-simulator';
import { dotNetTicks } from '../wire/dotnet-ticks';

/** A market record of spec 2.1, in the field order of the exchange's later captures. */
export interface MarketRecordView {
  readonly baseAsset: string;
  readonly quoteAsset: string;
  readonly minAmount: JsonNumber;
  readonly priceDeviation: JsonNumber;
  readonly hidden: 0 | 1;
  readonly makerFee: JsonNumber;
  readonly makerFeeLimit: 0;
  readonly takerFee: JsonNumber;
  readonly takerFeeLimit: 0;
  readonly priceScale: number;
  readonly amountScale: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly status: MarketStatus;
  readonly side: MarketSideMode;
  readonly isCustom: boolean;
}

export interface ExchangeInfoView {
  /** .NET ticks, written as a bare integer. */
  readonly serverTime: JsonNumber;
  readonly pairs: Record<string, MarketRecordView>;
}

const FEE_SCALE = 18;

/** Canonical number text of a configured decimal ("0.10" -> 0.1), valid as a JSON number. */
function decimal(text: string, scale: number): JsonNumber {
  return jsonNumber(parseUnits(text, scale), scale);
}

/**
 * One market as `/frontoffice/api/info` lists it. `status` is the live one (a halt or pause fault
 * changes it). `makerFeeLimit`/`takerFeeLimit` are 0 as in every capture of the exchange; clients
 * must tolerate such fields the specification does not explain.
 */
export function marketRecord(market: MarketSimulator): MarketRecordView {
  const { spec } = market;
  return {
    baseAsset: spec.baseAsset,
    quoteAsset: spec.quoteAsset,
    minAmount: decimal(spec.minAmount, spec.amountScale),
    priceDeviation: decimal(spec.priceDeviation, FEE_SCALE),
    hidden: spec.hidden,
    makerFee: decimal(spec.makerFee, FEE_SCALE),
    makerFeeLimit: 0,
    takerFee: decimal(spec.takerFee, FEE_SCALE),
    takerFeeLimit: 0,
    priceScale: spec.priceScale,
    amountScale: spec.amountScale,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    status: market.status,
    side: spec.side,
    isCustom: spec.isCustom,
  };
}

/** The body of `/frontoffice/api/info`: every market, hidden ones included (they carry `hidden: 1`). */
export function exchangeInfo(markets: readonly MarketSimulator[], nowMs: number): ExchangeInfoView {
  const pairs: Record<string, MarketRecordView> = {};
  for (const market of markets) pairs[market.instrument] = marketRecord(market);
  return { serverTime: new JsonNumber(dotNetTicks(nowMs).toString()), pairs };
}
