import { fixtureExchange } from '../testing/fixture-exchange';
import { readSpecFixture } from '../testing/spec-fixtures';
import { fieldsBut, Fields, frameFields } from './testing/frame-fields';
import { fixtureGateway } from './testing/fixture-gateway';

describe('the generic result against the specification fixtures', () => {
  it('answers a successful UnsubscribeLevel2 byte for byte', () => {
    const subscribe = readSpecFixture<unknown>('gateway/level2-snapshot.json');
    const fixture = readSpecFixture<unknown>('gateway/unsubscribe-reply.json');
    const gateway = fixtureGateway(fixtureExchange().exchange);
    gateway.call(subscribe.request!);
    expect(gateway.call(fixture.request!)).toEqual([fixture.wire]);
  });

  it('answers UnsubscribeLevel2 of an unknown instrument with code 104 and a detail of its own', () => {
    const fixture = readSpecFixture<unknown>('gateway/unsubscribe-failed.json');
    const [reply] = fixtureGateway(fixtureExchange().exchange).call(fixture.request!);
    const expected = frameFields<Fields>(fixture.wire);
    const actual = frameFields<Fields>(reply);
    expect(actual.envelope).toEqual(expected.envelope);
    expect(fieldsBut(actual.payload, 'detail')).toEqual(fieldsBut(expected.payload, 'detail'));
    // Spec 7.4 gives no text for a failure's detail; the sandbox names the instrument.
    expect(actual.payload.detail).toEqual(expect.any(String));
  });
});
