import { JsonNumber } from '../wire/json-number';
import { formatUnits } from '../engine/units';

export { JsonNumber, toJson } from '../wire/json-number';

/** Units at a scale, written into JSON as a bare number with exact digits. */
export function jsonNumber(units: bigint, scale: number): JsonNumber {
  return new JsonNumber(formatUnits(units, scale));
}
