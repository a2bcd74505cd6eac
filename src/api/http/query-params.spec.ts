import { ApiError } from './api-error';
import { bookLevelParam, depthParam, echo, integerParam, MAX_DEPTH, singleParam } from './query-params';

/** The 400 a call throws, as `code: message`. */
function refusal(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.status).toBe(400);
    return `${error.code}: ${error.message}`;
  }
  throw new Error('expected a 400');
}

describe('echo', () => {
  it('quotes the value as JSON, cut at 64 characters so that the message stays short', () => {
    expect(echo('abc')).toBe('"abc"');
    expect(echo('a"b')).toBe('"a\\"b"');
    expect(echo('x'.repeat(64))).toBe(`"${'x'.repeat(64)}"`);
    expect(echo('x'.repeat(1000))).toBe(`"${'x'.repeat(64)}"...`);
  });
});

describe('singleParam', () => {
  it('reads an absent or empty value as not given', () => {
    expect(singleParam(undefined, 'depth')).toBeUndefined();
    expect(singleParam('', 'depth')).toBeUndefined();
    expect(singleParam('4', 'depth')).toBe('4');
  });

  it('refuses a key given twice, whatever the values', () => {
    expect(refusal(() => singleParam(['2', '4'], 'depth'))).toBe(
      'invalid_depth: depth must be given once, got 2 values',
    );
    expect(refusal(() => singleParam(['', '4'], 'depth'))).toBe(
      'invalid_depth: depth must be given once, got 2 values',
    );
  });
});

describe('integerParam', () => {
  it('reads digits, leading zeros included, up to the maximum', () => {
    expect(integerParam(undefined, 'limit', 7, 100)).toBe(7);
    expect(integerParam('0', 'limit', 7, 100)).toBe(0);
    expect(integerParam('0100', 'limit', 7, 100)).toBe(100);
  });

  it.each([
    ['101', 'limit must be at most 100, got "101"'],
    ['99999999999999999999', 'limit must be at most 100, got "99999999999999999999"'],
    ['-2', 'limit must not be negative, got "-2"'],
    ['abc', 'limit must be a non-negative integer, digits only, got "abc"'],
    ['2.0', 'limit must be a non-negative integer, digits only, got "2.0"'],
    ['1e3', 'limit must be a non-negative integer, digits only, got "1e3"'],
    [' 2', 'limit must be a non-negative integer, digits only, got " 2"'],
  ])('refuses %j: %s', (value, message) => {
    expect(refusal(() => integerParam(value, 'limit', 0, 100))).toBe(`invalid_limit: ${message}`);
  });

  it('names what the digits stand for', () => {
    expect(refusal(() => integerParam('yesterday', 'start_time', 0, 10, 'a Unix time'))).toBe(
      'invalid_start_time: start_time must be a Unix time, digits only, got "yesterday"',
    );
  });

  it('keeps the reason whole before an echo cut short', () => {
    const message = refusal(() => integerParam(`${'9'.repeat(500)}`, 'limit', 0, 100));
    expect(message).toBe(`invalid_limit: limit must be at most 100, got "${'9'.repeat(64)}"...`);
  });
});

describe('depthParam', () => {
  it('gives the levels per side: all for 0, absent or empty, N/2 for an even N', () => {
    expect(depthParam(undefined)).toBe(0);
    expect(depthParam('')).toBe(0);
    expect(depthParam('0')).toBe(0);
    expect(depthParam('100')).toBe(50);
    expect(depthParam(String(MAX_DEPTH))).toBe(MAX_DEPTH / 2);
  });

  it.each([
    ['3', 'depth must be even (N/2 levels per side) or 0 for the full book, got "3"'],
    [String(MAX_DEPTH + 2), `depth must be at most ${MAX_DEPTH}, got "${MAX_DEPTH + 2}"`],
    ['99999999999999999999', `depth must be at most ${MAX_DEPTH}, got "99999999999999999999"`],
    ['-4', 'depth must not be negative, got "-4"'],
    [['2', '4'], 'depth must be given once, got 2 values'],
  ])('refuses %j: %s', (value, message) => {
    expect(refusal(() => depthParam(value))).toBe(`invalid_depth: ${message}`);
  });
});

describe('bookLevelParam', () => {
  it('is 2 by default, 1 or 2 when given', () => {
    expect(bookLevelParam(undefined)).toBe(2);
    expect(bookLevelParam('')).toBe(2);
    expect(bookLevelParam('1')).toBe(1);
    expect(bookLevelParam('2')).toBe(2);
    expect(bookLevelParam('01')).toBe(1);
  });

  it.each(['3', '0', '00', 'two', '-1', '1.0'])('refuses %j, naming the levels there are', (value) => {
    expect(refusal(() => bookLevelParam(value))).toBe(
      `invalid_level: level must be 1 (best bid and ask) or 2 (every price level), got ${JSON.stringify(value)}`,
    );
  });

  it('refuses a level given twice', () => {
    expect(refusal(() => bookLevelParam(['1', '2']))).toBe(
      'invalid_level: level must be given once, got 2 values',
    );
  });
});
