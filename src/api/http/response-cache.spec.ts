import { BuiltResponse, ResponseCache } from './response-cache';

describe('ResponseCache', () => {
  const body = (text: string) => (): BuiltResponse => ({ body: text });

  it('builds a body once per key and version', () => {
    const cache = new ResponseCache();
    const build = jest.fn(body('one'));
    const first = cache.get('summary', '1', build);
    expect(cache.get('summary', '1', build)).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    const next = cache.get('summary', '2', body('two'));
    expect(next.body.toString()).toBe('two');
    expect(next.etag).not.toBe(first.etag);
    expect(next.contentType).toBe('application/json; charset=utf-8');
  });

  it('when full, evicts a key not asked for since it was cached before one that was', () => {
    const cache = new ResponseCache(2);
    cache.get('a', '1', body('a'));
    cache.get('b', '1', body('b'));
    cache.get('a', '1', body('a again'));
    cache.get('c', '1', body('c'));
    const rebuilt = jest.fn(body('rebuilt'));
    cache.get('a', '1', rebuilt);
    cache.get('c', '1', rebuilt);
    expect(rebuilt).not.toHaveBeenCalled();
    cache.get('b', '1', rebuilt);
    expect(rebuilt).toHaveBeenCalledTimes(1);
  });

  it('keeps keys asked for again over a key asked for once, so that a scan does not flush it', () => {
    const cache = new ResponseCache(2);
    cache.get('a', '1', body('a'));
    cache.get('b', '1', body('b'));
    cache.get('a', '1', body('a'));
    cache.get('b', '1', body('b'));
    cache.get('once', '1', body('once'));
    const rebuilt = jest.fn(body('rebuilt'));
    cache.get('a', '1', rebuilt);
    cache.get('b', '1', rebuilt);
    expect(rebuilt).not.toHaveBeenCalled();
  });
});
