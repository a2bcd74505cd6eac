import { RestNetworkError } from './rest-errors';

describe('RestNetworkError', () => {
  const url = 'http://127.0.0.1:4999/frontoffice/api/info';

  it('says the exchange is unreachable, and why, for a refused connection', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4999'), { code: 'ECONNREFUSED' });
    const error = new RestNetworkError(url, 1, new TypeError('fetch failed', { cause: refused }));
    expect(error.message).toBe(`GET ${url} failed: exchange unreachable: connection refused`);
  });

  it('keeps the chain of messages for other failures', () => {
    const error = new RestNetworkError(
      url,
      1,
      new TypeError('fetch failed', { cause: new Error('other side closed') }),
    );
    expect(error.message).toBe(`GET ${url} failed: fetch failed: other side closed`);
  });
});
