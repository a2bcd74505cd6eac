import { Side } from '../engine/side';
import { generateMarkets } from '../market/market-catalog';
import { MarketSimulator } from './market-simulator';
import { TopOfBookLog } from './top-of-book-log';

function market(): MarketSimulator {
  let orderId = 0;
  let tradeId = 0;
  const simulator = new MarketSimulator(generateMarkets(1, 7)[0], {
    seed: 7,
    restingOrders: 50,
    tradeRetentionMs: 86_400_000,
    orderIds: { next: () => ++orderId },
    tradeIds: { next: () => ++tradeId },
  });
  simulator.seed(1_000);
  return simulator;
}

const limit = (side: Side, price: bigint, amount: bigint) =>
  ({ accountId: 9, side, type: 'limit', price, amount, timeInForce: 'gtc' }) as const;

describe('TopOfBookLog', () => {
  it('records only the changes that move the best bid or ask, with their version and event time', () => {
    const simulator = market();
    const log = new TopOfBookLog();
    log.record([simulator]);
    const bestBid = simulator.bestPrice(Side.Buy) as bigint;
    const bestAsk = simulator.bestPrice(Side.Sell) as bigint;

    simulator.execute(limit(Side.Buy, bestBid - 5n, 1n), 2_000); // behind the touch: not recorded
    simulator.execute(limit(Side.Buy, bestBid + 1n, 3n), 3_000); // a new best bid
    simulator.execute(limit(Side.Sell, bestAsk, 2n), 4_000); // more at the best ask

    const changes = log.changes(simulator.instrument) ?? [];
    expect(changes.map((change) => [change.version, change.time])).toEqual([
      [simulator.version - 1, 3_000],
      [simulator.version, 4_000],
    ]);
    expect(changes[0].bid?.[1]).toBe('0.'.padEnd(simulator.spec.amountScale + 1, '0') + '3');
    expect(changes[1].ask?.[0]).toBe(changes[0].ask?.[0]);
    expect(changes[1].ask?.[1]).not.toBe(changes[0].ask?.[1]);
  });

  it('stops recording when cleared', () => {
    const simulator = market();
    const log = new TopOfBookLog();
    log.record([simulator]);
    log.clear();
    simulator.execute(limit(Side.Buy, (simulator.bestPrice(Side.Buy) as bigint) + 1n, 1n), 2_000);
    expect(log.changes(simulator.instrument)).toBeUndefined();
  });
});
