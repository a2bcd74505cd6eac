import { ApiError } from '../http/api-error';
import { cmcDepthParam } from './cmc-depth-param';

describe('cmcDepthParam', () => {
  it('gives the levels per side: all for 0 or absent, N/2 for N, (N - 1)/2 for an odd N', () => {
    expect(cmcDepthParam(undefined)).toBe(0);
    expect(cmcDepthParam('0')).toBe(0);
    expect(cmcDepthParam('100')).toBe(50);
    expect(cmcDepthParam('5')).toBe(2);
    expect(cmcDepthParam('2')).toBe(1);
  });

  it.each(['1', '-2', 'abc', '2.0', '1e3'])('refuses %s with 400', (value) => {
    expect(() => cmcDepthParam(value)).toThrow(ApiError);
  });
});
