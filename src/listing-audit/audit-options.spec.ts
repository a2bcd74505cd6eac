import { parseAuditOptions, UsageError } from './audit-options';

describe('parseAuditOptions', () => {
  it('takes the base URL and defaults', () => {
    expect(parseAuditOptions(['http://localhost:3000/cmc/'])).toMatchObject({
      baseUrl: 'http://localhost:3000/cmc',
      format: 'listing',
      markets: 0,
      intervalMs: 60_000,
      timeoutMs: 10_000,
      attempts: 3,
      json: false,
    });
  });

  it('reads options in both spellings', () => {
    expect(
      parseAuditOptions([
        'https://x.example/api',
        '--format=coingecko',
        '--markets',
        '5',
        '--interval',
        '0.5',
        '--json',
      ]),
    ).toMatchObject({ format: 'coingecko', markets: 5, intervalMs: 500, json: true });
  });

  it.each([
    [[], /base URL is missing/],
    [['localhost:3000'], /http\(s\)/],
    [['http://a', '--format', 'nomics'], /--format must be one of/],
    [['http://a', '--interval', '-1'], /--interval takes seconds/],
    [['http://a', '--attempts', '0'], /--attempts takes a whole number, at least 1/],
    [['http://a', '--verbose'], /unknown option --verbose/],
    [['http://a', '--timeout'], /--timeout needs a value/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseAuditOptions(argv)).toThrow(UsageError);
    expect(() => parseAuditOptions(argv)).toThrow(message);
  });
});
