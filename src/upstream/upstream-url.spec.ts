import { checkBaseUrl, upstreamUrl } from './upstream-url';

describe('upstreamUrl', () => {
  it.each([
    ['https://api.example.com:8443/trading', 'https://api.example.com:8443/trading/frontoffice/api/info'],
    ['https://api.example.com:8443/trading/', 'https://api.example.com:8443/trading/frontoffice/api/info'],
    ['https://api.example.com:8443/a/b//', 'https://api.example.com:8443/a/b/frontoffice/api/info'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000/frontoffice/api/info'],
    ['http://127.0.0.1:4000/', 'http://127.0.0.1:4000/frontoffice/api/info'],
  ])('joins %s and the path', (base, expected) => {
    expect(upstreamUrl(base, '/frontoffice/api/info')).toBe(expected);
  });

  it('adds an encoded query', () => {
    expect(
      upstreamUrl('http://h/trading', '/marketdata/instruments/btc_usdt/history', {
        startDate: '2024-03-14T09:00:00',
        type: '1m',
      }),
    ).toBe(
      'http://h/trading/marketdata/instruments/btc_usdt/history?startDate=2024-03-14T09%3A00%3A00&type=1m',
    );
  });

  it('needs a path from the root', () => {
    expect(() => upstreamUrl('http://h', 'frontoffice/api/info')).toThrow(RangeError);
  });
});

describe('checkBaseUrl', () => {
  it('accepts http(s) URLs with or without a path', () => {
    expect(checkBaseUrl('https://h:8443/trading')).toBe('https://h:8443/trading');
    expect(checkBaseUrl('http://h')).toBe('http://h');
  });

  it.each([['not a url'], ['ftp://h/x'], ['http://h/x?a=1'], ['http://h/x#top']])('rejects %s', (base) => {
    expect(() => checkBaseUrl(base)).toThrow(RangeError);
  });
});
