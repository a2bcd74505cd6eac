import { confirmIntervalMs } from './pipeline-factory';

describe('confirmIntervalMs', () => {
  it('confirms a quiet book twelve times within the staleness bound, at most every 5 s and at least every 100 ms', () => {
    expect(confirmIntervalMs(60_000)).toBe(5_000);
    expect(confirmIntervalMs(600_000)).toBe(5_000);
    expect(confirmIntervalMs(30_000)).toBe(2_500);
    expect(confirmIntervalMs(2_000)).toBe(167);
    expect(confirmIntervalMs(500)).toBe(100);
  });
});
