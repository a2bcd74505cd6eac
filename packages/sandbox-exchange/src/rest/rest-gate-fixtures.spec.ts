import { FaultSwitchboard } from '../faults/fault-switchboard';
import { readSpecFixture } from '../testing/spec-fixtures';
import { RestCallStats } from './rest-call-stats';
import { RestGate } from './rest-gate';

describe('the overloaded error body against the specification fixture', () => {
  it('answers with the status and the body of the fixture byte for byte', () => {
    const fixture = readSpecFixture<unknown>('rest/error-overloaded.json');
    const faults = new FaultSwitchboard(() => true);
    faults.set('rest-503', true);
    const gate = new RestGate({ faults, stats: new RestCallStats(), rateLimits: false });
    const refusal = gate.check('/marketdata/instruments/eth_btc/depth', '10.0.0.1', 0);
    expect(refusal?.status).toBe(Number(fixture.status));
    expect(JSON.stringify(refusal?.body)).toBe(fixture.wire);
  });
});
