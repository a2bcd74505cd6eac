import { LevelUpdate } from '../../market/book-update';
import { FrameMeaning, readSpecFixture, unixMs } from '../testing/spec-fixtures';
import { decodeLevel2Snapshot, decodeLevel2Update } from './level2-codec';
import { LEVEL2_EVENT } from './market-data-subscriptions';
import { envelopeOf, expectedEnvelope, fixtureFrame } from './testing/fixture-frame';

interface Level2Meaning {
  readonly UpdateId: string;
  readonly TimeStamp: string;
  readonly UpdateType: string;
  readonly Price: string;
  readonly InstrumentId: string;
  readonly Quantity: string;
  readonly Side: string;
}

const ETH_BTC = { instrumentId: 4, instrument: 'eth_btc' };
const DELETE = '2';

function update(row: Level2Meaning): LevelUpdate {
  return {
    side: row.Side === '0' ? 'bid' : 'ask',
    price: row.Price,
    amount: row.UpdateType === DELETE ? '0' : row.Quantity,
  };
}

/** What a frame of rows means for the book: the highest UpdateId and TimeStamp, the rows in order. */
function bookMessage(rows: readonly Level2Meaning[], snapshot: boolean) {
  return {
    instrument: ETH_BTC.instrument,
    version: Math.max(...rows.map((row) => Number(row.UpdateId))),
    snapshot,
    updates: rows.map(update),
    time: Math.max(...rows.map((row) => unixMs(row.TimeStamp))),
  };
}

describe('Level 2 codec against the specification fixtures', () => {
  it('reads the SubscribeLevel2 reply as the snapshot of the book', () => {
    const fixture = readSpecFixture<FrameMeaning<Level2Meaning[]>>('gateway/level2-snapshot.json');
    const frame = fixtureFrame(fixture);
    expect(envelopeOf(frame)).toEqual(expectedEnvelope(fixture));
    expect(decodeLevel2Snapshot(frame.payload, ETH_BTC, 0)).toEqual(bookMessage(fixture.means.o, true));
  });

  it('reads the Level2UpdateEvent as a delta whose rows apply in order', () => {
    const fixture = readSpecFixture<FrameMeaning<Level2Meaning[]>>('gateway/level2-update.json');
    const frame = fixtureFrame(fixture);
    expect(envelopeOf(frame)).toEqual(expectedEnvelope(fixture));
    expect(frame.name).toBe(LEVEL2_EVENT);
    expect(decodeLevel2Update(frame.payload, ETH_BTC, 0)).toEqual(bookMessage(fixture.means.o, false));
  });
});
