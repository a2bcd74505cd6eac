import { restFamilyOf } from './rest-family';

describe('restFamilyOf', () => {
  it.each([
    ['/frontoffice/api/info', 'frontoffice'],
    ['/frontoffice/api/orders?orderId=1', 'frontoffice'],
    ['/marketdata/instruments/btc_usdt/depth', 'marketdata'],
    ['/marketdata/instruments/btc_usdt/history?startDate=2024-01-01T00:00:00&type=1m', 'marketdata'],
    ['/marketdata/information', 'marketdata'],
  ])('puts %s under %s', (url, family) => {
    expect(restFamilyOf(url)).toBe(family);
  });

  it.each([
    '/marketdata/info',
    '/marketdata/info/',
    '/marketdata/info/negotiate?negotiateVersion=1',
    '/frontoffice/ws/account',
    '/sandbox/truth/btc_usdt',
    '/sandbox/stats',
    '/api/v1/trade/auth',
    '/WSGateway/',
    '/frontoffice',
    '/x/frontoffice/api/info',
    '/?/frontoffice/',
  ])('leaves %s outside the limited families', (url) => {
    expect(restFamilyOf(url)).toBeUndefined();
  });
});
