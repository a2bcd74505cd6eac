import { LevelAction, LevelChange } from '../engine/level-change';
import { Side } from '../engine/side';
import { parseUnits } from '../engine/units';
import { MarketSimulator } from '../simulation/market-simulator';
import { fixtureExchange, fixtureMarket, placeLevels } from '../testing/fixture-exchange';
import { LevelMeaning, readSpecFixture } from '../testing/spec-fixtures';
import { bookDeltaItem, bookSnapshotItem } from './book-item';
import { streamItemFrame } from './hub-protocol';

interface BookItemMeaning {
  readonly invocationId: string;
  readonly item: {
    readonly bids: readonly LevelMeaning[];
    readonly asks: readonly LevelMeaning[];
    readonly version: string;
  };
}

const snapshot = readSpecFixture<BookItemMeaning>('hub/book-snapshot.json');
const update = readSpecFixture<BookItemMeaning>('hub/book-update.json');

/** One side of the book after the update: its levels replace the snapshot's, amount 0 removes one. */
function sideAfter(before: readonly LevelMeaning[], changed: readonly LevelMeaning[]): LevelMeaning[] {
  const byPrice = new Map(before.map((level) => [level.price, level]));
  for (const level of changed) {
    if (Number(level.amount) === 0) byPrice.delete(level.price);
    else byPrice.set(level.price, level);
  }
  return [...byPrice.values()];
}

function place(market: MarketSimulator, bids: readonly LevelMeaning[], asks: readonly LevelMeaning[]): void {
  const now = 0;
  placeLevels(
    market,
    Side.Buy,
    bids.map((level) => ({ ...level, orders: 1 })),
    now,
  );
  placeLevels(
    market,
    Side.Sell,
    asks.map((level) => ({ ...level, orders: 1 })),
    now,
  );
}

function changes(market: MarketSimulator, side: Side, levels: readonly LevelMeaning[]): LevelChange[] {
  const { priceScale, amountScale } = market.spec;
  return levels.map(({ price, amount }) => {
    const units = parseUnits(amount, amountScale);
    return {
      side,
      price: parseUnits(price, priceScale),
      amount: units,
      orders: units === 0n ? 0 : 1,
      action: units === 0n ? LevelAction.Delete : LevelAction.Update,
    };
  });
}

describe('Book stream items against the specification fixtures', () => {
  it('writes the first item, the whole book, byte for byte', () => {
    const market = fixtureMarket(fixtureExchange().exchange);
    place(market, snapshot.means.item.bids, snapshot.means.item.asks);
    market.version = Number(snapshot.means.item.version);
    const wire = streamItemFrame(snapshot.means.invocationId, bookSnapshotItem(market));
    expect(wire).toBe(snapshot.wire);
  });

  it('writes an update, the changed levels with the totals after it, byte for byte', () => {
    const market = fixtureMarket(fixtureExchange().exchange);
    const { item } = update.means;
    place(
      market,
      sideAfter(snapshot.means.item.bids, item.bids),
      sideAfter(snapshot.means.item.asks, item.asks),
    );
    const delta = {
      instrument: market.instrument,
      instrumentId: market.spec.instrumentId,
      version: Number(item.version),
      time: 0,
      changes: [...changes(market, Side.Buy, item.bids), ...changes(market, Side.Sell, item.asks)],
    };
    expect(streamItemFrame(update.means.invocationId, bookDeltaItem(market, delta))).toBe(update.wire);
  });
});
