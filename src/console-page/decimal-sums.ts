/**
 * The running totals of non-negative decimal texts, exact (whole numbers of the smallest unit in
 * a bigint), each written with as many fraction digits as the longest fraction among them:
 * `['0.5', '1.25']` → `['0.50', '1.75']`.
 */
export function runningSums(values: readonly string[]): string[] {
  const scale = values.reduce((widest, value) => Math.max(widest, (value.split('.')[1] ?? '').length), 0);
  let total = 0n;
  return values.map((value) => {
    const [whole, fraction = ''] = value.split('.');
    total += BigInt(whole + fraction.padEnd(scale, '0'));
    return unitsText(total, scale);
  });
}

function unitsText(units: bigint, scale: number): string {
  if (scale === 0) return units.toString();
  const digits = units.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
