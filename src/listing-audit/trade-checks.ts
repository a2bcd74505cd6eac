import { fail, Finding } from './audit-finding';
import { abs, compare, decimalText, exact, halfLastDigit, minus, plus, times } from './exact-decimal';
import { TradeView } from './market-views';
import { CLOCK_SKEW_MS } from './transport-checks';

export const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST_MILLISECOND_TIME = 1_000_000_000_000;

/**
 * Trade times: Unix milliseconds, not in the future, and (where the format serves the last 24 hours)
 * none older than 24 hours before the answer, allowing for the two clocks.
 */
export function checkTradesWindow(
  trades: readonly TradeView[],
  receivedAtMs: number,
  only24h: boolean,
): Finding[] {
  const findings: Finding[] = [];
  for (const trade of trades) {
    const time = trade.timeMs;
    if (time === undefined) continue;
    if (time < FIRST_MILLISECOND_TIME)
      findings.push(
        fail('trades-window', trade.where, `time ${time} reads as Unix seconds, not milliseconds`),
      );
    else if (time > receivedAtMs + CLOCK_SKEW_MS)
      findings.push(
        fail('trades-window', trade.where, `time ${new Date(time).toISOString()} is in the future`),
      );
    else if (only24h && time < receivedAtMs - DAY_MS - CLOCK_SKEW_MS)
      findings.push(
        fail('trades-window', trade.where, `time ${new Date(time).toISOString()} is older than 24 hours`),
      );
  }
  return findings;
}

export function checkTradeIds(trades: readonly TradeView[]): Finding[] {
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const trade of trades) {
    if (seen.has(trade.id)) findings.push(fail('trade-ids', trade.where, `id ${trade.id} served twice`));
    seen.add(trade.id);
  }
  return findings;
}

/**
 * quote = price x base, to the rounding the three written values allow: half a last digit of the
 * quote volume, plus what half a last digit of the price and of the base volume can move the product.
 * Base and quote volumes served the wrong way round miss by far more.
 */
export function checkTradeQuoteVolume(trades: readonly TradeView[]): Finding[] {
  const findings: Finding[] = [];
  for (const trade of trades) {
    const { price, baseVolume, quoteVolume } = trade;
    if (price === undefined || baseVolume === undefined || quoteVolume === undefined) continue;
    const product = times(exact(price), exact(baseVolume));
    const slack = plus(
      halfLastDigit(quoteVolume),
      plus(times(exact(price), halfLastDigit(baseVolume)), times(exact(baseVolume), halfLastDigit(price))),
    );
    if (compare(abs(minus(exact(quoteVolume), product)), slack) > 0)
      findings.push(
        fail(
          'trade-quote-volume',
          trade.where,
          `quote volume ${quoteVolume}, but price ${price} x base volume ${baseVolume} is ${decimalText(product)}`,
        ),
      );
  }
  return findings;
}
