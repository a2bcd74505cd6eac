import { FrameMeaning, readSpecFixture } from '../testing/spec-fixtures';
import { decodeInstruments } from './instruments-codec';
import { envelopeOf, expectedEnvelope, fixtureFrame } from './testing/fixture-frame';

interface InstrumentMeaning {
  readonly InstrumentId: string;
  readonly Symbol: string;
  readonly Product1Symbol: string;
  readonly Product2Symbol: string;
  readonly SessionStatus: string;
}

describe('decodeInstruments against the specification fixture', () => {
  it('reads every instrument of the GetInstruments reply', () => {
    const fixture = readSpecFixture<FrameMeaning<InstrumentMeaning[]>>('gateway/instruments.json');
    const frame = fixtureFrame(fixture);
    expect(envelopeOf(frame)).toEqual(expectedEnvelope(fixture));
    expect(decodeInstruments(frame.payload)).toEqual(
      fixture.means.o.map((instrument) => ({
        instrumentId: Number(instrument.InstrumentId),
        symbol: instrument.Symbol,
        baseSymbol: instrument.Product1Symbol,
        quoteSymbol: instrument.Product2Symbol,
        sessionStatus: instrument.SessionStatus,
      })),
    );
  });
});
