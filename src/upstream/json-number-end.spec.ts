import { jsonNumberEnd } from './json-number-end';

describe('jsonNumberEnd', () => {
  it.each([
    ['0', 1],
    ['-0.5,', 4],
    ['12.034e+5]', 9],
    ['7E-08}', 5],
    ['01', 1],
    ['1.5.5', 3],
  ])('ends the number %j at %i', (text, end) => {
    expect(jsonNumberEnd(text, 0)).toBe(end);
  });

  it('reads from the given start', () => {
    expect(jsonNumberEnd('{"a":-3.25}', 5)).toBe(10);
  });

  it.each([
    ['-', 1],
    ['-x', 1],
    ['.5', 0],
    ['1.', 2],
    ['1.e5', 2],
    ['2e', 2],
    ['2e+', 3],
    ['2E-x', 3],
  ])('gives the place of the missing digit of %j as its complement', (text, missing) => {
    expect(~jsonNumberEnd(text, 0)).toBe(missing);
  });
});
