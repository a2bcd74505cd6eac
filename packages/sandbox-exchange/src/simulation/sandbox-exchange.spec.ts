import { generateMarkets } from '../market/market-catalog';
import { candleHistory } from '../rest/candle-history';
import { MarketSimulator } from './market-simulator';
import { SandboxExchange } from './sandbox-exchange';

const HOUR_MS = 3_600_000;
const NOW = 1_700_000_000_000;

function preparedExchange(marketCount: number, historyHours: number): SandboxExchange {
  const exchange = new SandboxExchange({
    markets: generateMarkets(marketCount, 11),
    seed: 11,
    flowRate: 0,
    historyHours,
    clock: { now: () => NOW },
  });
  exchange.prepare();
  return exchange;
}

function openMarkets(exchange: SandboxExchange): MarketSimulator[] {
  return exchange.all().filter((market) => market.isOpen);
}

/** Trades of the history, per open market: what the 24-hour window of a fresh sandbox holds. */
function historyTrades(historyRate?: number): number[] {
  const exchange = new SandboxExchange({
    markets: generateMarkets(3, 11),
    seed: 11,
    flowRate: 0,
    historyHours: 2,
    ...(historyRate === undefined ? {} : { historyRate }),
    clock: { now: () => NOW },
  });
  exchange.prepare();
  return exchange
    .all()
    .filter((market) => market.isOpen)
    .map((market) => market.tradeLog.between(NOW - 2 * HOUR_MS, NOW).length);
}

describe('SandboxExchange history', () => {
  it('plays the history at the asked rate, as dense as a live flow of that rate', () => {
    const sparse = historyTrades();
    const dense = historyTrades(1);
    expect(sparse.length).toBeGreaterThan(0);
    // 7,200 operations per market instead of 720: ten times the orders, so far more trades.
    dense.forEach((trades, index) => expect(trades).toBeGreaterThan(5 * sparse[index]));
  });

  it('plays no history at a rate of 0', () => {
    expect(historyTrades(0).every((trades) => trades === 0)).toBe(true);
  });
});

describe('SandboxExchange history of several days', () => {
  const DAYS = 3;
  const exchange = preparedExchange(3, DAYS * 24);

  it('keeps every trade of the history, the oldest day included', () => {
    for (const market of openMarkets(exchange)) {
      const oldestDay = market.tradeLog.between(NOW - DAYS * 24 * HOUR_MS, NOW - (DAYS - 1) * 24 * HOUR_MS);
      expect(oldestDay.length).toBeGreaterThan(0);
      expect(market.tradeLog.size).toBe(market.tradeLog.between(NOW - DAYS * 24 * HOUR_MS - 1, NOW).length);
    }
  });

  it('serves REST candles from the trades of days ago', () => {
    const market = openMarkets(exchange)[0];
    // The first whole hours of the history, a day of them.
    const from = Math.ceil((NOW - DAYS * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS;
    const history = candleHistory(market, { from, to: from + 24 * HOUR_MS, interval: '1h', count: 1000 });
    // Sparse: 360 operations an hour make trades in every hour.
    expect(history.data.length).toBe(24);
  });

  it('keeps the last 24 hours as dense as a history of one day', () => {
    const oneDay = preparedExchange(3, 24);
    const windowTrades = (each: SandboxExchange) =>
      openMarkets(each).map((market) => market.tradeLog.between(NOW - 24 * HOUR_MS, NOW).length);
    windowTrades(exchange).forEach((trades, index) => {
      const reference = windowTrades(oneDay)[index];
      expect(trades).toBeGreaterThan(reference * 0.7);
      expect(trades).toBeLessThan(reference * 1.3);
    });
  });

  it('plays a sparse history of many markets within one budget, the last 24 hours first', () => {
    const crowded = preparedExchange(50, 14 * 24);
    const seedOnly = preparedExchange(50, 0);
    const operations = crowded.all().map((market, index) => market.version - seedOnly.all()[index].version);
    // 400,000 operations for 50 markets: at most 8,000 each, less than the 8,640 of one day at 360 an hour.
    expect(Math.max(...operations)).toBeLessThanOrEqual(8_000);
    for (const market of openMarkets(crowded))
      expect(market.tradeLog.between(Number.MIN_SAFE_INTEGER, NOW - 24 * HOUR_MS)).toEqual([]);
  });
});
