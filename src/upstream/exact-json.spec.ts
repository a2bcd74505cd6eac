import { parseExactJson } from './exact-json';

describe('parseExactJson', () => {
  it('keeps every digit of every number as text', () => {
    const value = parseExactJson(
      '{"price":0.1,"amount":123456789.123456789012345678,"version":509444497,"tiny":1e-7,"list":[10,2.50]}',
    );
    expect(value).toEqual({
      price: '0.1',
      amount: '123456789.123456789012345678',
      version: '509444497',
      tiny: '1e-7',
      list: ['10', '2.50'],
    });
  });

  it('leaves strings, booleans and null alone', () => {
    expect(parseExactJson('{"s":"1.5","t":true,"n":null}')).toEqual({ s: '1.5', t: true, n: null });
  });

  it('rejects malformed text', () => {
    expect(() => parseExactJson('{"a":')).toThrow(SyntaxError);
    expect(() => parseExactJson('nope')).toThrow(SyntaxError);
  });
});
