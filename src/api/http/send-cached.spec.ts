import { preferredEncoding } from './send-cached';

describe('preferredEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.5', 'br'],
    ['gzip;q=0', undefined],
    ['*', 'gzip'],
    [['deflate', 'gzip'], 'gzip'],
  ])('%j gives %s, the same when asked again', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
    expect(preferredEncoding(header)).toBe(expected);
  });

  it('parses headers past what it remembers', () => {
    for (let i = 0; i < 600; i++) expect(preferredEncoding(`gzip;q=0.${i + 1}`)).toBe('gzip');
    expect(preferredEncoding(`${'x'.repeat(300)}, br`)).toBe('br');
  });
});
