import { compare, decimalText, exact, exactDecimal, halfLastDigit, minus, sum, times } from './exact-decimal';

describe('exact decimals', () => {
  it('reads plain notation only', () => {
    expect(exactDecimal('1e-7')).toBeUndefined();
    expect(exactDecimal('0.10')).toEqual({ units: 10n, scale: 2 });
  });

  it('adds, subtracts and multiplies without rounding', () => {
    expect(decimalText(sum(['0.1', '0.2', '0.30'].map(exact)))).toBe('0.6');
    expect(decimalText(times(exact('64946.00'), exact('0.73702901')))).toBe('47867.08608346');
    expect(decimalText(minus(exact('1'), exact('1.000000000000000001')))).toBe('-0.000000000000000001');
  });

  it('compares across scales and gives half a last digit', () => {
    expect(compare(exact('1.50'), exact('1.5'))).toBe(0);
    expect(compare(exact('2'), exact('10'))).toBe(-1);
    expect(decimalText(halfLastDigit('47867.09'))).toBe('0.005');
  });
});
