import { parseOwnerRequest } from './owner-request';

describe('parseOwnerRequest', () => {
  it('reads a request of either kind', () => {
    expect(parseOwnerRequest('{"kind":"verify","instruments":["btc_usdt"]}')).toEqual({
      kind: 'verify',
      instruments: ['btc_usdt'],
    });
    expect(parseOwnerRequest('{"kind":"candles","instruments":[]}')).toEqual({
      kind: 'candles',
      instruments: [],
    });
  });

  it.each([
    'not json',
    'null',
    '[]',
    '{"kind":"restart","instruments":[]}',
    '{"kind":"verify"}',
    '{"kind":"verify","instruments":[1]}',
  ])('rejects %s', (text) => {
    expect(parseOwnerRequest(text)).toBeUndefined();
  });
});
