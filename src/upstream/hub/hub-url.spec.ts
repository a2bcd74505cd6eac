import { marketDataHubUrl } from './hub-url';

describe('marketDataHubUrl', () => {
  it('puts the hub under the root, keeping the root path with or without a trailing slash', () => {
    expect(marketDataHubUrl('https://api.example.com:8443/trading')).toBe(
      'https://api.example.com:8443/trading/marketdata/info',
    );
    expect(marketDataHubUrl('https://api.example.com:8443/trading/')).toBe(
      'https://api.example.com:8443/trading/marketdata/info',
    );
    expect(marketDataHubUrl('http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000/marketdata/info');
  });

  it('rejects roots that are no http(s) URL or carry a query', () => {
    expect(() => marketDataHubUrl('api.example.com')).toThrow(RangeError);
    expect(() => marketDataHubUrl('ws://api.example.com')).toThrow(RangeError);
    expect(() => marketDataHubUrl('https://api.example.com/?a=1')).toThrow(RangeError);
  });
});
