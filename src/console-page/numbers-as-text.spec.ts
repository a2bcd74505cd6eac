import { parseNumbersAsText } from './numbers-as-text';

describe('parseNumbersAsText', () => {
  it('gives every number as its text, digits a float would lose kept', () => {
    expect(parseNumbersAsText('{"s":"ok","t":[1767225600],"c":[0.000000001234567890123,65000.10]}')).toEqual({
      s: 'ok',
      t: ['1767225600'],
      c: ['0.000000001234567890123', '65000.10'],
    });
  });

  it('reads negative numbers, exponents and nesting', () => {
    expect(parseNumbersAsText('[-1.5,2e-3,{"a":[0]}]')).toEqual(['-1.5', '2e-3', { a: ['0'] }]);
  });

  it('leaves strings alone, digits and escaped quotes in them too', () => {
    expect(parseNumbersAsText('{"errmsg":"bad \\"from\\": 12, 13","nextTime":1767225600}')).toEqual({
      errmsg: 'bad "from": 12, 13',
      nextTime: '1767225600',
    });
  });

  it('keeps true, false and null', () => {
    expect(parseNumbersAsText('[true,false,null]')).toEqual([true, false, null]);
  });

  it('refuses what is not JSON', () => {
    expect(() => parseNumbersAsText('{"s":')).toThrow(SyntaxError);
  });
});
