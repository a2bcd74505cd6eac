import { fixtureExchange, fixtureMarket } from '../testing/fixture-exchange';
import { recordFixtureTape } from '../testing/fixture-tape';
import { FrameMeaning, readSpecFixture, unixMs } from '../testing/spec-fixtures';
import { fieldsBut, Fields, frameFields } from './testing/frame-fields';
import { fixtureGateway } from './testing/fixture-gateway';

const fixture = readSpecFixture<FrameMeaning<{ readonly TradeTimeMS: string }[]>>(
  'gateway/trade-history.json',
);

function getTradesHistory() {
  const { exchange } = fixtureExchange();
  recordFixtureTape(fixtureMarket(exchange));
  const [reply] = fixtureGateway(exchange).call(fixture.request!);
  return { expected: frameFields<Fields[]>(fixture.wire), actual: frameFields<Fields[]>(reply) };
}

describe('the GetTradesHistory reply against the specification fixture', () => {
  it('answers with the executions of the fixture, every field of spec 2.10 but TradeTimeMS exact', () => {
    const { expected, actual } = getTradesHistory();
    expect(actual.envelope).toEqual(expected.envelope);
    // The sandbox lists the fields in another order than spec 2.10; order aside they agree.
    const specFields = (record: Fields) => Object.fromEntries(fieldsBut(record, 'TradeTimeMS', 'MakerTaker'));
    expect(actual.payload.map(specFields)).toEqual(expected.payload.map(specFields));
  });

  it('writes TradeTimeMS in Unix milliseconds where spec 2.10 says ticks, and adds MakerTaker', () => {
    const { actual } = getTradesHistory();
    // Account 7 took trade 1005 and made trade 1004.
    expect(actual.payload.map((record) => [record.TradeTimeMS, record.MakerTaker])).toEqual(
      fixture.means.o.map((record, index) => [String(unixMs(record.TradeTimeMS)), ['Taker', 'Maker'][index]]),
    );
  });
});
