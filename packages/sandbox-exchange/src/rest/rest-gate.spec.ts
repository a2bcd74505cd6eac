import { FaultSwitchboard } from '../faults/fault-switchboard';
import { RestCallStats } from './rest-call-stats';
import { OVERLOADED_MESSAGE, RestGate } from './rest-gate';

const INFO = '/frontoffice/api/info';
const DEPTH = '/marketdata/instruments/btc_usdt/depth';

function setup(rateLimits = true, random?: () => number) {
  const faults = new FaultSwitchboard(() => true);
  const stats = new RestCallStats();
  return { faults, stats, gate: new RestGate({ faults, stats, rateLimits, random }) };
}

describe('RestGate', () => {
  it('limits each family per client address and counts what it did', () => {
    const { gate, stats } = setup();
    expect(gate.check(INFO, '10.0.0.1', 0)).toBeUndefined();
    expect(gate.check(INFO, '10.0.0.1', 10)?.status).toBe(429);
    expect(gate.check(INFO, '10.0.0.2', 10)).toBeUndefined();
    expect(gate.check(DEPTH, '10.0.0.1', 20)).toBeUndefined();
    expect(gate.check(DEPTH, '10.0.0.1', 30)).toBeUndefined();
    const refusal = gate.check(DEPTH, '10.0.0.1', 40);
    expect(refusal?.status).toBe(429);
    expect(refusal?.body.errors[0].message).toMatch(/2 requests per second under \/marketdata\//);
    expect(gate.check(INFO, '10.0.0.1', 1000)).toBeUndefined();
    expect(stats.snapshot()).toEqual({
      frontoffice: { served: 3, limited: 1, failed: 0 },
      marketdata: { served: 2, limited: 1, failed: 0 },
    });
  });

  it('lets everything through without rate limits', () => {
    const { gate, stats } = setup(false);
    for (let i = 0; i < 10; i++) expect(gate.check(INFO, '10.0.0.1', i)).toBeUndefined();
    expect(stats.snapshot().frontoffice).toEqual({ served: 10, limited: 0, failed: 0 });
  });

  it('ignores and does not count paths outside the REST families', () => {
    const { gate, stats } = setup();
    for (let i = 0; i < 5; i++) {
      expect(gate.check('/sandbox/stats', '10.0.0.1', i)).toBeUndefined();
      expect(gate.check('/marketdata/info/negotiate', '10.0.0.1', i)).toBeUndefined();
    }
    expect(stats.snapshot().marketdata).toEqual({ served: 0, limited: 0, failed: 0 });
  });

  it('answers the exchange overload body while rest-503 is on, and recovers when it is off', () => {
    const { gate, faults, stats } = setup(false);
    faults.set('rest-503', true);
    expect(gate.check(DEPTH, 'a', 0)).toEqual({
      status: 503,
      body: { errors: [{ code: '', message: OVERLOADED_MESSAGE }] },
    });
    faults.set('rest-503', false);
    expect(gate.check(DEPTH, 'a', 1)).toBeUndefined();
    expect(stats.snapshot().marketdata).toEqual({ served: 1, limited: 0, failed: 1 });
  });

  it('answers 429 while rest-429 is on, counted as failed rather than limited', () => {
    const { gate, faults, stats } = setup(false);
    faults.set('rest-429', true);
    expect(gate.check(INFO, 'a', 0)?.status).toBe(429);
    expect(stats.snapshot().frontoffice).toEqual({ served: 0, limited: 0, failed: 1 });
  });

  it('honours the probability of a fault', () => {
    const draws = [0.1, 0.9, 0.29, 0.3];
    const { gate, faults } = setup(false, () => draws.shift()!);
    faults.set('rest-503', true, { probability: 0.3 });
    const statuses = [0, 1, 2, 3].map((t) => gate.check(DEPTH, 'a', t)?.status);
    expect(statuses).toEqual([503, undefined, 503, undefined]);
  });

  it('applies the rate limit before faults, so a refused call is never reported as a fault', () => {
    const { gate, faults, stats } = setup(true);
    faults.set('rest-503', true);
    expect(gate.check(INFO, 'a', 0)?.status).toBe(503);
    expect(gate.check(INFO, 'a', 1)?.status).toBe(429);
    expect(stats.snapshot().frontoffice).toEqual({ served: 0, limited: 1, failed: 1 });
  });
});
