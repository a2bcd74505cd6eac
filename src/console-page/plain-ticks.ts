import type uPlot from 'uplot';

/** Width of a label's character in the charts' 12 px font, with a margin. */
const CHARACTER_PX = 8;

/** Decimal places that tell ticks `increment` apart. */
function placesFor(increment: number): number {
  return Math.min(20, Math.max(0, Math.ceil(-Math.log10(increment) - 1e-9)));
}

/**
 * Tick labels in plain decimals with as many places as the step between ticks needs: a price axis
 * of an 18-decimal market reads 0.000000004321, not 0 at every tick nor an exponent.
 */
export function plainTicks(
  _chart: uPlot,
  splits: number[],
  _axis: number,
  _space: number,
  increment: number,
): string[] {
  return splits.map((value) => value.toFixed(placesFor(increment)));
}

/** An axis as wide as its longest label, which the default width would cut off. */
export function fitLabels(_chart: uPlot, values: string[] | null): number {
  return 16 + CHARACTER_PX * Math.max(1, ...(values ?? []).map((label) => label.length));
}

/** Room between the ticks of a horizontal axis for labels of the length plainTicks writes. */
export function roomForLabels(_chart: uPlot, _axis: number, min: number, max: number): number {
  const increment = (max - min) / 4;
  if (!(increment > 0)) return 60;
  const whole = Math.max(1, Math.floor(Math.log10(Math.max(Math.abs(min), Math.abs(max)))) + 1);
  return CHARACTER_PX * (whole + placesFor(increment) + 1) + 24;
}
