import { LevelAction } from '../engine/level-change';
import { Side } from '../engine/side';
import { parseUnits } from '../engine/units';
import { MarketSimulator } from '../simulation/market-simulator';
import { fixtureExchange, fixtureMarket, placeLevels } from '../testing/fixture-exchange';
import { recordFixtureTape } from '../testing/fixture-tape';
import { FrameMeaning, readSpecFixture, unixMs } from '../testing/spec-fixtures';
import { fixtureGateway } from './testing/fixture-gateway';

interface Level2Meaning {
  readonly UpdateId: string;
  readonly TimeStamp: string;
  readonly UpdateType: string;
  readonly NumOrders: string;
  readonly Price: string;
  readonly Quantity: string;
  readonly Side: string;
}

const snapshot = readSpecFixture<FrameMeaning<Level2Meaning[]>>('gateway/level2-snapshot.json');
const update = readSpecFixture<FrameMeaning<Level2Meaning[]>>('gateway/level2-update.json');

/** The book of the snapshot rows, at their version and time, after the fixtures' trades. */
function snapshotMarket(): { market: MarketSimulator; gateway: ReturnType<typeof fixtureGateway> } {
  const { exchange } = fixtureExchange();
  const market = fixtureMarket(exchange);
  recordFixtureTape(market);
  for (const side of [Side.Buy, Side.Sell]) {
    const rows = snapshot.means.o.filter((row) => Number(row.Side) === side);
    const levels = rows.map((row) => ({
      price: row.Price,
      amount: row.Quantity,
      orders: Number(row.NumOrders),
    }));
    placeLevels(market, side, levels, unixMs(rows[0].TimeStamp));
  }
  market.version = Number(snapshot.means.o[0].UpdateId);
  return { market, gateway: fixtureGateway(exchange) };
}

describe('Level 2 frames against the specification fixtures', () => {
  it('answers SubscribeLevel2 with the snapshot byte for byte', () => {
    const { gateway } = snapshotMarket();
    expect(gateway.call(snapshot.request!)).toEqual([snapshot.wire]);
  });

  it('sends the Level2UpdateEvent rows byte for byte, numbered by the socket where spec 4.6 echoes the request', () => {
    const { market, gateway } = snapshotMarket();
    gateway.call(update.request!);
    const rows = update.means.o;
    const { priceScale, amountScale } = market.spec;
    gateway.level2.publish(
      {
        instrument: market.instrument,
        instrumentId: market.spec.instrumentId,
        version: Number(rows[0].UpdateId),
        time: unixMs(rows[0].TimeStamp),
        changes: rows.map((row) => ({
          side: Number(row.Side) as Side,
          price: parseUnits(row.Price, priceScale),
          amount: parseUnits(row.Quantity, amountScale),
          orders: Number(row.NumOrders),
          action: Number(row.UpdateType) as LevelAction,
        })),
      },
      market,
    );
    // Spec 4.6: server frames echo the number of the frame they answer (8, the subscription); the
    // sandbox numbers events per socket from 1, as the real gateway does.
    expect(gateway.sent()).toEqual([update.wire.replace(`"i":${update.means.i},`, '"i":1,')]);
  });
});
