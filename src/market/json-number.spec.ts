import { JsonNumber, JsonNumberList, toJson } from './json-number';

describe('toJson', () => {
  it('writes a JsonNumber as a bare number with every digit of its text', () => {
    expect(toJson({ p: new JsonNumber('65000.10'), id: new JsonNumber('12345678901234567890') })).toBe(
      '{"p":65000.10,"id":12345678901234567890}',
    );
  });

  it('writes a JsonNumberList as an array of bare numbers, empty ones too', () => {
    expect(toJson({ t: new JsonNumberList(['1', '-2.50', '0.000001']), v: new JsonNumberList([]) })).toBe(
      '{"t":[1,-2.50,0.000001],"v":[]}',
    );
  });

  it('leaves strings as strings', () => {
    expect(toJson({ s: 'ok', n: ['1,2'] })).toBe('{"s":"ok","n":["1,2"]}');
  });

  it('refuses a JsonNumber whose text is not a JSON number', () => {
    expect(() => toJson({ p: new JsonNumber('1.') })).toThrow(SyntaxError);
  });
});
