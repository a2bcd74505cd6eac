/** Sign, integer digits, fraction digits, exponent: "007.50", "1.", ".5", "2e-8", "-0". */
const DECIMAL_PARTS = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

export class InvalidDecimalError extends Error {
  constructor(readonly text: unknown) {
    super(`not a decimal number: ${JSON.stringify(text)}`);
    this.name = 'InvalidDecimalError';
  }
}

/**
 * The canonical text of a non-negative decimal: plain notation, no leading or trailing zeros, so equal
 * values have equal text ("7.5" for "007.50", "0.00000002" for "2e-8"). A minus sign is allowed on
 * zero only; anything else throws InvalidDecimalError.
 */
export function canonicalDecimal(text: string): string {
  const parts = DECIMAL_PARTS.exec(text);
  if (parts === null) throw new InvalidDecimalError(text);
  const [, sign, integer, fraction = '', exponent = '0'] = parts;
  const digits = integer + fraction;
  if (digits === '') throw new InvalidDecimalError(text);
  if (!/[1-9]/.test(digits)) return '0';
  if (sign === '-') throw new InvalidDecimalError(text);

  const point = integer.length + Number(exponent);
  const padded = point <= 0 ? '0'.repeat(1 - point) + digits : digits.padEnd(point, '0');
  const split = Math.max(point, 1);
  const whole = padded.slice(0, split).replace(/^0+(?=\d)/, '');
  const decimals = padded.slice(split).replace(/0+$/, '');
  return decimals === '' ? whole : `${whole}.${decimals}`;
}
