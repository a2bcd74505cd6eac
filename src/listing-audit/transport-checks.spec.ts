import { Fetched } from './http-poller';
import { checkTransport } from './transport-checks';

const NOW = Date.parse('2026-11-26T12:00:00Z');

function answer(overrides: Partial<Fetched> = {}, headers: Record<string, string> = {}): Fetched {
  return {
    path: '/summary',
    url: 'http://x/summary',
    status: 200,
    elapsedMs: 5,
    receivedAtMs: NOW,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      date: new Date(NOW).toUTCString(),
      'cache-control': 'public, max-age=1',
      ...headers,
    },
    contentEncoding: 'gzip',
    bodyBytes: 5000,
    json: {},
    ...overrides,
  };
}

const RULES = { gzipRequired: true, optionalPaths: new Set(['/asset']), staleAfterMs: 300_000 };

describe('checkTransport', () => {
  it('passes a gzip JSON answer with fresh headers', () => {
    expect(checkTransport(answer(), RULES)).toEqual([]);
  });

  it('fails no answer and authentication, only warns a missing recommended endpoint', () => {
    expect(
      checkTransport(answer({ status: undefined, error: 'no whole answer within 10 ms' }), RULES),
    ).toEqual([expect.objectContaining({ check: 'endpoints-answer', severity: 'fail' })]);
    expect(checkTransport(answer({ status: 401 }), RULES)[0].detail).toMatch(/authentication/);
    expect(checkTransport(answer({ status: 404, path: '/asset' }), RULES)).toEqual([
      expect.objectContaining({ check: 'endpoints-answer', severity: 'warn' }),
    ]);
  });

  it('fails an HTML body, and large bodies without gzip where gzip is required', () => {
    const html = answer(
      { json: undefined, jsonError: 'Unexpected <', contentEncoding: undefined },
      {
        'content-type': 'text/html',
      },
    );
    expect(checkTransport(html, RULES).map((finding) => `${finding.severity} ${finding.check}`)).toEqual([
      'fail json-content',
      'fail json-content',
      'fail gzip',
    ]);
    expect(checkTransport(answer({ contentEncoding: undefined }), { ...RULES, gzipRequired: false })).toEqual(
      [expect.objectContaining({ check: 'gzip', severity: 'warn' })],
    );
    expect(checkTransport(answer({ contentEncoding: undefined, bodyBytes: 300 }), RULES)).toEqual([]);
  });

  it('fails a cache longer than a poll, warns absent freshness headers', () => {
    expect(checkTransport(answer({}, { 'cache-control': 'public, max-age=43200' }), RULES)).toEqual([
      expect.objectContaining({ check: 'freshness-headers', severity: 'fail' }),
    ]);
    const bare = answer();
    const headers = { 'content-type': 'application/json' };
    expect(checkTransport({ ...bare, headers }, RULES).map((finding) => finding.detail)).toEqual([
      'no Date header',
      'no Cache-Control header',
    ]);
  });
});
