import { FrameMeaning, readSpecFixture, unixMs } from '../testing/spec-fixtures';
import { decodeLevel1 } from './level1-codec';
import { LEVEL1_EVENT } from './market-data-subscriptions';
import { envelopeOf, expectedEnvelope, fixtureFrame } from './testing/fixture-frame';

interface Level1Meaning {
  readonly InstrumentId: string;
  readonly BestBid: string;
  readonly BestOffer: string;
  readonly LastTradedPx: string;
  readonly LastTradedQty: string;
  readonly LastTradeTime: string;
  readonly Rolling24HrVolume: string;
  readonly Rolling24HrNumTrades: string;
  readonly TimeStamp: string;
}

const ETH_BTC = { instrumentId: 4, instrument: 'eth_btc' };

describe('decodeLevel1 against the specification fixture', () => {
  it('reads the Level1UpdateEvent with exact prices and Unix-millisecond times', () => {
    const fixture = readSpecFixture<FrameMeaning<Level1Meaning>>('gateway/level1-update.json');
    const frame = fixtureFrame(fixture);
    expect(envelopeOf(frame)).toEqual(expectedEnvelope(fixture));
    expect(frame.name).toBe(LEVEL1_EVENT);
    const record = fixture.means.o;
    expect(decodeLevel1(frame.payload, ETH_BTC, 0)).toEqual({
      instrument: ETH_BTC.instrument,
      instrumentId: Number(record.InstrumentId),
      bestBid: record.BestBid,
      bestOffer: record.BestOffer,
      lastTradedPrice: record.LastTradedPx,
      lastTradedQuantity: record.LastTradedQty,
      lastTradeTime: unixMs(record.LastTradeTime),
      rolling24hVolume: record.Rolling24HrVolume,
      rolling24hTradeCount: Number(record.Rolling24HrNumTrades),
      time: unixMs(record.TimeStamp),
    });
  });
});
