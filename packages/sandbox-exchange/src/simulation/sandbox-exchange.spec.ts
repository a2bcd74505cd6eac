import { generateMarkets } from '../market/market-catalog';
import { SandboxExchange } from './sandbox-exchange';

const HOUR_MS = 3_600_000;
const NOW = 1_700_000_000_000;

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
