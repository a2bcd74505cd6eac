import { previewJson } from './json-preview';

describe('previewJson', () => {
  it('writes small values as JSON.stringify does', () => {
    for (const value of [null, true, 12, 'a"b', [1, [2, {}]], { a: [1, 'x'], b: null }, []])
      expect(previewJson(value)).toBe(JSON.stringify(value));
    expect(previewJson(undefined)).toBe('nothing');
  });

  it('cuts long values to the limit, ending in ...', () => {
    const long = { levels: Array.from({ length: 100_000 }, (_, price) => ({ price, amount: 1 })) };
    const preview = previewJson(long);
    expect(preview).toHaveLength(60);
    expect(preview).toBe(`${JSON.stringify(long).slice(0, 57)}...`);
    expect(previewJson('x'.repeat(1_000_000), 10)).toBe('"xxxxxx...');
  });

  it('shows values nested too deep for JSON.stringify', () => {
    let nested: unknown = [];
    for (let depth = 0; depth < 200_000; depth++) nested = [nested];
    expect(() => JSON.stringify(nested)).toThrow(RangeError);
    expect(previewJson(nested, 8)).toBe('[[[[[...');
  });

  it('writes special leaves as told', () => {
    class Exact {
      constructor(readonly digits: string) {}
    }
    const leaf = (value: object) => (value instanceof Exact ? value.digits : undefined);
    expect(previewJson({ price: new Exact('0.10') }, 60, leaf)).toBe('{"price":0.10}');
  });
});
