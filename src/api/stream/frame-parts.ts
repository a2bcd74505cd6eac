import { TSchema, Type } from '@sinclair/typebox';
import { CHART_RESOLUTION_NAMES } from '../../market/bars/chart-resolution';

/**
 * The parts the stream's frame schemas are made of. Free of the server's code, like the frames
 * built from them alone, so that the console page can take their types.
 */

/** An instrument in its catalogue form, inside a channel's pattern. */
export const INSTRUMENT = '[a-z0-9.]+(_[a-z0-9.]+)+';
export const RESOLUTION = `(${CHART_RESOLUTION_NAMES.join('|')})`;

/** A channel in its catalogue form, as every server frame names it. */
export const channel = (pattern: string, example: string) =>
  Type.String({ pattern, description: 'the channel in its catalogue form', examples: [example] });

export const unixMs = (description: string) =>
  Type.Integer({ minimum: 0, description: `${description}, Unix milliseconds` });

/** A server frame: every field named, no other. */
export const frame = <T extends Record<string, TSchema>>(description: string, properties: T) =>
  Type.Object(properties, { description, additionalProperties: false });
