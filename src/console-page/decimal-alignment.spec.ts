import { alignmentPadding, fractionDigits, widestFraction } from './decimal-alignment';

describe('fractionDigits', () => {
  it('counts the digits after the point, trailing zeros included', () => {
    expect(fractionDigits('64984.00')).toBe(2);
    expect(fractionDigits('0.000000004321500000')).toBe(18);
    expect(fractionDigits('102760')).toBe(0);
    expect(fractionDigits('—')).toBe(0);
  });
});

describe('widestFraction', () => {
  it('is the most fraction digits of a column, 0 for none', () => {
    expect(widestFraction(['64984.00', '0.05124000', '—'])).toBe(8);
    expect(widestFraction([])).toBe(0);
  });
});

describe('alignmentPadding', () => {
  it('fills the missing fraction digits with figure spaces', () => {
    expect(alignmentPadding('64984.00', 8)).toBe('\u2007'.repeat(6));
    expect(alignmentPadding('0.05124000', 8)).toBe('');
  });

  it('stands in for the point of a text without one', () => {
    expect(alignmentPadding('—', 2)).toBe('\u2008\u2007\u2007');
    expect(alignmentPadding('65000', 2)).toBe('\u2008\u2007\u2007');
  });

  it('pads nothing in a column of integers', () => {
    expect(alignmentPadding('102760', 0)).toBe('');
    expect(alignmentPadding('—', 0)).toBe('');
  });
});
