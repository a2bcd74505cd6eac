import { Side } from '../engine/side';
import { TickDirection } from '../simulation/sandbox-trade';
import { fixtureExchange, fixtureMarket } from '../testing/fixture-exchange';
import { recordFixtureTape, sandboxTrade } from '../testing/fixture-tape';
import { FrameMeaning, readSpecFixture } from '../testing/spec-fixtures';
import { fixtureGateway } from './testing/fixture-gateway';

interface TradeMeaning {
  readonly TradeId: string;
  readonly Quantity: string;
  readonly Price: string;
  readonly Order1: string;
  readonly Order2: string;
  readonly TradeTime: string;
  readonly Direction: string;
  readonly TakerSide: string;
}

function setup() {
  const { exchange } = fixtureExchange();
  const market = fixtureMarket(exchange);
  recordFixtureTape(market);
  return { market, gateway: fixtureGateway(exchange) };
}

describe('trade frames against the specification fixtures', () => {
  it('answers SubscribeTrades with the last trades byte for byte', () => {
    const fixture = readSpecFixture<FrameMeaning<TradeMeaning[]>>('gateway/trades-snapshot.json');
    expect(setup().gateway.call(fixture.request!)).toEqual([fixture.wire]);
  });

  it('sends the trade event byte for byte, numbered by the socket where spec 4.6 echoes the request', () => {
    const fixture = readSpecFixture<FrameMeaning<TradeMeaning[]>>('gateway/trades-update.json');
    const { market, gateway } = setup();
    gateway.call(fixture.request!);
    // Order1 is the buy order, Order2 the sell order; the taker's is the one on the taker's side.
    const trades = fixture.means.o.map((row) => {
      const takerSide = Number(row.TakerSide) as Side;
      const [buyOrder, sellOrder] = [Number(row.Order1), Number(row.Order2)];
      const [maker, taker] = takerSide === Side.Buy ? [sellOrder, buyOrder] : [buyOrder, sellOrder];
      return sandboxTrade(market, {
        id: Number(row.TradeId),
        time: row.TradeTime,
        price: row.Price,
        amount: row.Quantity,
        takerSide,
        direction: Number(row.Direction) as TickDirection,
        maker: { orderId: maker, accountId: 11 },
        taker: { orderId: taker, accountId: 9 },
      });
    });
    gateway.trades.publish(trades, market);
    expect(gateway.sent()).toEqual([fixture.wire.replace(`"i":${fixture.means.i},`, '"i":1,')]);
  });
});
