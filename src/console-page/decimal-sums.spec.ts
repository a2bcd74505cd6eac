import { runningSums } from './decimal-sums';

describe('runningSums', () => {
  it('adds exactly, at the longest fraction of the values', () => {
    expect(runningSums(['0.1', '0.2', '0.3'])).toEqual(['0.1', '0.3', '0.6']);
    expect(runningSums(['0.5', '1.25'])).toEqual(['0.50', '1.75']);
    expect(runningSums(['12', '30'])).toEqual(['12', '42']);
  });

  it('keeps every digit of 18-decimal amounts past 2^53', () => {
    expect(runningSums(['123456789.123456789012345678', '0.000000000000000001'])).toEqual([
      '123456789.123456789012345678',
      '123456789.123456789012345679',
    ]);
  });

  it('is empty for no values', () => {
    expect(runningSums([])).toEqual([]);
  });
});
