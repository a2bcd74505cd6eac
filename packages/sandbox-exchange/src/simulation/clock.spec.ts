import { generateMarkets } from '../market/market-catalog';
import { nonDecreasing } from './clock';
import { SandboxExchange } from './sandbox-exchange';

const NOW = 1_700_000_000_000;

describe('nonDecreasing', () => {
  it('holds still while its source has stepped back, and follows it again once it catches up', () => {
    const readings = [NOW, NOW + 10, NOW - 60_000, NOW + 5, NOW + 11];
    const clock = nonDecreasing(() => readings.shift()!);
    expect([1, 2, 3, 4, 5].map(() => clock.now())).toEqual([NOW, NOW + 10, NOW + 10, NOW + 10, NOW + 11]);
  });

  it('keeps a market whose host clock steps back in time order, so that none of its trades drops out of the truth', () => {
    let host = NOW;
    const exchange = new SandboxExchange({
      markets: generateMarkets(2, 5),
      seed: 5,
      flowRate: 0,
      historyHours: 1,
      clock: nonDecreasing(() => host),
    });
    exchange.prepare();
    const [market] = exchange.all().filter((each) => each.isOpen);
    for (const step of [1_000, 1_000, -120_000, 1_000, 1_000, 200_000]) {
      host += step;
      exchange.stepMarket(market, 200);
    }
    const trades = market.tradeLog.between(0, exchange.clock.now());
    expect(trades.length).toBe(market.tradeLog.size);
    const times = trades.map((trade) => trade.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
