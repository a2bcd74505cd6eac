import { fail, warn } from './audit-finding';
import { exitStatus, renderReport, summarize } from './audit-report';

describe('the report', () => {
  it('gives every check one line, the worst finding deciding, with examples under a failure', () => {
    const results = summarize(
      [
        warn('gzip', '/summary', '2000 bytes sent uncompressed'),
        fail('decimal-strings', '/summary BTC_USDT.last', 'the JSON number 1e-7'),
        fail('decimal-strings', '/summary BTC_USDT.last', 'the JSON number 1e-7'),
      ],
      new Map([['polls-consistent', 'one poll (--interval 0)']]),
    );
    const text = renderReport('heading', results);
    expect(text).toMatch(
      /^FAIL decimal-strings .*\(1 problem\)\n {7}x \/summary BTC_USDT.last: the JSON number 1e-7$/m,
    );
    expect(text).toMatch(/^WARN gzip /m);
    expect(text).toMatch(/^SKIP polls-consistent +skipped: one poll/m);
    expect(text).toMatch(/^PASS book-order /m);
    expect(exitStatus(results)).toBe(1);
  });

  it('exits 0 when there are only warnings', () => {
    expect(exitStatus(summarize([warn('gzip', '/ticker', 'uncompressed')], new Map()))).toBe(0);
  });
});
