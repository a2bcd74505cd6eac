import { ApiError } from '../http/api-error';
import { MAX_DEPTH } from '../http/query-params';
import { cmcDepthParam } from './cmc-depth-param';

function message(value: unknown): string {
  try {
    cmcDepthParam(value);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect([error.status, error.code]).toEqual([400, 'invalid_depth']);
    return error.message;
  }
  throw new Error('expected a 400');
}

describe('cmcDepthParam', () => {
  it('gives the levels per side: all for 0 or absent, N/2 for N, (N - 1)/2 for an odd N', () => {
    expect(cmcDepthParam(undefined)).toBe(0);
    expect(cmcDepthParam('0')).toBe(0);
    expect(cmcDepthParam('100')).toBe(50);
    expect(cmcDepthParam('5')).toBe(2);
    expect(cmcDepthParam('2')).toBe(1);
  });

  it.each([
    ['1', 'depth must be 0 (full book) or at least 2 (depth/2 per side), got "1"'],
    ['-2', 'depth must not be negative, got "-2"'],
    ['abc', 'depth must be a non-negative integer, digits only, got "abc"'],
    ['2.0', 'depth must be a non-negative integer, digits only, got "2.0"'],
    ['1e3', 'depth must be a non-negative integer, digits only, got "1e3"'],
    ['99999999999999999999', `depth must be at most ${MAX_DEPTH}, got "99999999999999999999"`],
  ])('refuses %s: %s', (value, expected) => {
    expect(message(value)).toBe(expected);
  });
});
