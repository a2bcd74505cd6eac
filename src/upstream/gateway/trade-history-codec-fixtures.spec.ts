import { FrameMeaning, readSpecFixture, unixMs } from '../testing/spec-fixtures';
import { envelopeOf, expectedEnvelope, fixtureFrame } from './testing/fixture-frame';
import { decodeTradeHistory, TradeExecution } from './trade-history-codec';

interface TradeHistoryMeaning {
  readonly TradeTimeMS: string;
  readonly ExecutionId: string;
  readonly TradeId: string;
  readonly InstrumentId: string;
  readonly Side: string;
  readonly Quantity: string;
  readonly Price: string;
}

function execution(record: TradeHistoryMeaning): TradeExecution {
  return {
    key: record.ExecutionId,
    tradeId: record.TradeId,
    instrumentId: Number(record.InstrumentId),
    side: record.Side === 'Buy' ? 'buy' : 'sell',
    price: record.Price,
    amount: record.Quantity,
    time: unixMs(record.TradeTimeMS),
  };
}

describe('decodeTradeHistory against the specification fixture', () => {
  it('reads every execution, its TradeTimeMS in .NET ticks as the specification has it', () => {
    const fixture = readSpecFixture<FrameMeaning<TradeHistoryMeaning[]>>('gateway/trade-history.json');
    const frame = fixtureFrame(fixture);
    expect(envelopeOf(frame)).toEqual(expectedEnvelope(fixture));
    expect(decodeTradeHistory(frame.payload)).toEqual(fixture.means.o.map(execution));
  });
});
