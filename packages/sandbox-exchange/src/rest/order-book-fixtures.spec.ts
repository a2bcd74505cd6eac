import { Side } from '../engine/side';
import { toJson } from '../http/json-number';
import { fixtureExchange, fixtureMarket, placeLevels } from '../testing/fixture-exchange';
import { LevelMeaning, readSpecFixture } from '../testing/spec-fixtures';
import { orderBookSnapshot } from './order-book-view';

interface DepthMeaning {
  readonly bids: readonly LevelMeaning[];
  readonly asks: readonly LevelMeaning[];
  readonly version: string;
}

describe('the REST depth against the specification fixture', () => {
  it('writes the book the fixture describes byte for byte', () => {
    const { wire, means } = readSpecFixture<DepthMeaning>('rest/depth.json');
    const { exchange, clock } = fixtureExchange();
    const market = fixtureMarket(exchange);
    placeLevels(
      market,
      Side.Buy,
      means.bids.map((level) => ({ ...level, orders: 1 })),
      clock.now(),
    );
    placeLevels(
      market,
      Side.Sell,
      means.asks.map((level) => ({ ...level, orders: 1 })),
      clock.now(),
    );
    market.version = Number(means.version);
    expect(toJson(orderBookSnapshot(market))).toBe(wire);
  });
});
