import { ExactRatio } from './exact-ratio';

describe('ExactRatio', () => {
  it('reads plain decimal text exactly', () => {
    expect(ExactRatio.of('12.50').compare(ExactRatio.fraction(25n, 2n))).toBe(0);
    expect(ExactRatio.of('-0.001').compare(ExactRatio.fraction(-1n, 1000n))).toBe(0);
    expect(ExactRatio.of('7').toFixed(2)).toBe('7.00');
  });

  it('rounds half away from zero, on both sides of zero', () => {
    expect(ExactRatio.of('2.005').toFixed(2)).toBe('2.01');
    expect(ExactRatio.of('-2.005').toFixed(2)).toBe('-2.01');
    expect(ExactRatio.of('2.0049999').toFixed(2)).toBe('2.00');
    expect(ExactRatio.of('-0.004').toFixed(2)).toBe('0.00');
    expect(ExactRatio.fraction(1n, 3n).toFixed(4)).toBe('0.3333');
    expect(ExactRatio.fraction(2n, 3n).toFixed(0)).toBe('1');
  });

  it('divides without losing digits', () => {
    const third = ExactRatio.ONE.dividedBy(ExactRatio.of('3'));
    expect(third.times(ExactRatio.of('3')).compare(ExactRatio.ONE)).toBe(0);
    expect(ExactRatio.of('1').dividedBy(ExactRatio.of('-4')).toFixed(2)).toBe('-0.25');
    expect(() => ExactRatio.ONE.dividedBy(ExactRatio.ZERO)).toThrow(RangeError);
  });

  it('keeps 18-decimal amounts times large prices exact', () => {
    const product = ExactRatio.of('123456789.123456789123456789').times(
      ExactRatio.of('0.000000000000000001'),
    );
    expect(product.toFixed(36)).toBe('0.000000000123456789123456789123456789');
  });

  it('adds, subtracts and compares', () => {
    const sum = ExactRatio.of('0.1').plus(ExactRatio.of('0.2'));
    expect(sum.compare(ExactRatio.of('0.3'))).toBe(0);
    expect(sum.minus(ExactRatio.of('0.5')).toFixed(1)).toBe('-0.2');
    expect(ExactRatio.of('1').compare(ExactRatio.of('2'))).toBe(-1);
    expect(ExactRatio.ZERO.isZero).toBe(true);
  });

  it('writes a halved price exactly, with the digits it needs', () => {
    expect(ExactRatio.of('101').plus(ExactRatio.of('102')).dividedBy(ExactRatio.of('2')).toExactText(8)).toBe(
      '101.5',
    );
    expect(ExactRatio.fraction(1n, 3n).toExactText(4)).toBe('0.3333');
  });
});
