import { Side } from '../engine/side';
import { fixtureExchange, fixtureMarket, placeLevels } from '../testing/fixture-exchange';
import { recordFixtureTape } from '../testing/fixture-tape';
import { FrameMeaning, readSpecFixture } from '../testing/spec-fixtures';
import { fixtureGateway } from './testing/fixture-gateway';

interface Level1Meaning {
  readonly BestBid: string;
  readonly BestOffer: string;
  readonly TimeStamp: string;
}

describe('the Level1UpdateEvent against the specification fixture', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends the record byte for byte, numbered by the socket where spec 4.6 echoes the request', () => {
    const fixture = readSpecFixture<FrameMeaning<Level1Meaning>>('gateway/level1-update.json');
    const { exchange, clock } = fixtureExchange();
    const market = fixtureMarket(exchange);
    const gateway = fixtureGateway(exchange);
    gateway.call(fixture.request!);

    const { BestBid, BestOffer, TimeStamp } = fixture.means.o;
    recordFixtureTape(market);
    placeLevels(market, Side.Buy, [{ price: BestBid, amount: '1', orders: 1 }], clock.now());
    placeLevels(market, Side.Sell, [{ price: BestOffer, amount: '1', orders: 1 }], clock.now());
    clock.set(TimeStamp);
    gateway.level1.touch(market);
    jest.runOnlyPendingTimers();

    // Spec 4.6: server frames echo the number of the frame they answer (the subscription); the
    // sandbox numbers events per socket from 1, as the real gateway does.
    expect(gateway.sent()).toEqual([fixture.wire.replace(`"i":${fixture.means.i},`, '"i":1,')]);
  });
});
