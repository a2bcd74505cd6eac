import { decimal, grouped, money, usdEstimate } from './formats';

describe('grouped', () => {
  it('groups the whole part in thousands and keeps the fraction as written', () => {
    expect(grouped('27945204.74')).toBe('27,945,204.74');
    expect(grouped('6840708383.232236894075599244')).toBe('6,840,708,383.232236894075599244');
    expect(grouped('1000')).toBe('1,000');
    expect(grouped('999.1000')).toBe('999.1000');
    expect(grouped('0.000000004321500000')).toBe('0.000000004321500000');
  });
});

describe('money', () => {
  it('writes the exact text grouped, with its unit, and a dash when absent', () => {
    expect(money('27945204.74', 'USDT')).toBe('27,945,204.74 USDT');
    expect(money('29.565689062762299102', 'ETH')).toBe('29.565689062762299102 ETH');
    expect(money(null, 'USDT')).toBe('—');
  });
});

describe('usdEstimate', () => {
  it('rounds half up to the whole dollar, past 2^53 too, and says it is an estimate', () => {
    expect(usdEstimate('27945204.74')).toBe('≈ $27,945,205');
    expect(usdEstimate('27945204.49')).toBe('≈ $27,945,204');
    expect(usdEstimate('999.50')).toBe('≈ $1,000');
    expect(usdEstimate('0.00')).toBe('≈ $0');
    expect(usdEstimate('12')).toBe('≈ $12');
    expect(usdEstimate('90071992547409919.50')).toBe('≈ $90,071,992,547,409,920');
    expect(usdEstimate(undefined)).toBe('—');
  });
});

describe('decimal', () => {
  it('is the text as given, trailing zeros and all', () => {
    expect(decimal('64984.00')).toBe('64984.00');
    expect(decimal(null)).toBe('—');
  });
});
