import { pow10 } from '../engine/units';

/**
 * Scale of every balance: 10^-54 of an asset. A price has at most 18 decimals, an amount 18 and a fee
 * rate 18, so a base amount, a quote value (price x amount) and a fee (value x rate) are all exact
 * at this scale: balances never round.
 */
export const BALANCE_SCALE = 54;

/** Scale of fee rates (`makerFee`, `takerFee`, `priceDeviation`). */
export const RATE_SCALE = 18;

/** Units at `scale` as balance units. */
export function toBalanceUnits(units: bigint, scale: number): bigint {
  return units * pow10(BALANCE_SCALE - scale);
}

/** `price x amount x (1 + rate)` in balance units: what a buyer pays, fee included, or locks. */
export function grossCost(
  price: bigint,
  amount: bigint,
  rate: bigint,
  priceScale: number,
  amountScale: number,
): bigint {
  return toBalanceUnits(price * amount * (pow10(RATE_SCALE) + rate), priceScale + amountScale + RATE_SCALE);
}

/** `price x amount` in balance units. */
export function quoteValue(price: bigint, amount: bigint, priceScale: number, amountScale: number): bigint {
  return toBalanceUnits(price * amount, priceScale + amountScale);
}

/** `price x amount x rate` in balance units: the fee of a fill. */
export function feeOf(
  price: bigint,
  amount: bigint,
  rate: bigint,
  priceScale: number,
  amountScale: number,
): bigint {
  return toBalanceUnits(price * amount * rate, priceScale + amountScale + RATE_SCALE);
}
