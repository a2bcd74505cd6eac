import { Trade } from '../../market/trade';
import { FrameMeaning, readSpecFixture, unixMs } from '../testing/spec-fixtures';
import { TRADE_EVENTS } from './market-data-subscriptions';
import { envelopeOf, expectedEnvelope, fixtureFrame } from './testing/fixture-frame';
import { decodeTrades } from './trade-rows-codec';

interface TradeMeaning {
  readonly TradeId: string;
  readonly InstrumentId: string;
  readonly Quantity: string;
  readonly Price: string;
  readonly TradeTime: string;
  readonly TakerSide: string;
}

const NAMES = new Map([[4, 'eth_btc']]);

function trade(row: TradeMeaning): Trade {
  return {
    id: row.TradeId,
    instrument: NAMES.get(Number(row.InstrumentId))!,
    price: row.Price,
    amount: row.Quantity,
    side: row.TakerSide === '0' ? 'buy' : 'sell',
    time: unixMs(row.TradeTime),
  };
}

describe('decodeTrades against the specification fixtures', () => {
  it('reads the SubscribeTrades reply, oldest first', () => {
    const fixture = readSpecFixture<FrameMeaning<TradeMeaning[]>>('gateway/trades-snapshot.json');
    const frame = fixtureFrame(fixture);
    expect(envelopeOf(frame)).toEqual(expectedEnvelope(fixture));
    expect(decodeTrades(frame.payload, NAMES)).toEqual(fixture.means.o.map(trade));
  });

  it('reads the trade event under the name the specification gives it', () => {
    const fixture = readSpecFixture<FrameMeaning<TradeMeaning[]>>('gateway/trades-update.json');
    const frame = fixtureFrame(fixture);
    expect(envelopeOf(frame)).toEqual(expectedEnvelope(fixture));
    expect(TRADE_EVENTS).toContain(frame.name);
    expect(decodeTrades(frame.payload, NAMES)).toEqual(fixture.means.o.map(trade));
  });
});
