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
export const plainTicks: uPlot.Axis.DynamicValues = (_chart, splits, _axis, _space, increment) =>
  splits.map((value) => value.toFixed(placesFor(increment)));

/** An axis as wide as its longest label, which the default width would cut off. */
export const fitLabels: uPlot.Axis.Size = (_chart, values) =>
  16 + CHARACTER_PX * Math.max(1, ...(values ?? []).map((label) => label.length));

/** Room between the ticks of a horizontal axis for labels of the length plainTicks writes. */
export const roomForLabels: uPlot.Axis.Space = (_chart, _axis, min, max) => {
  const increment = (max - min) / 4;
  if (!(increment > 0)) return 60;
  const whole = Math.max(1, Math.floor(Math.log10(Math.max(Math.abs(min), Math.abs(max)))) + 1);
  return CHARACTER_PX * (whole + placesFor(increment) + 1) + 24;
};
