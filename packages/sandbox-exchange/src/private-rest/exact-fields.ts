import { ExactJson, isJsonObject } from '../wire/exact-json';
import { badRequest } from './private-error';

export type ExactObject = { readonly [key: string]: ExactJson };

const NUMBER = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** The object a body field holds, or a 400. */
export function objectField(body: ExactJson | undefined, name: string): ExactObject {
  const value = isJsonObject(body) ? body[name] : undefined;
  if (!isJsonObject(value)) throw badRequest(`${name}: required, an object`);
  return value;
}

/** Plain decimal text of a non-negative number given as a JSON number or string, exponent expanded. */
export function decimalField(object: ExactObject, name: string, required: boolean): string | undefined {
  const value = object[name];
  if (value === undefined || value === null) {
    if (required) throw badRequest(`${name}: required, a number`);
    return undefined;
  }
  const match = typeof value === 'string' ? NUMBER.exec(value.trim()) : null;
  if (!match) throw badRequest(`${name}: must be a non-negative number, got ${JSON.stringify(value)}`);
  const [, integer, fraction = '', exponentText] = match;
  const exponent = Number(exponentText ?? 0);
  if (Math.abs(exponent) > 40) throw badRequest(`${name}: out of range`);
  const digits = integer + fraction;
  const point = integer.length + exponent;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

export function booleanField(object: ExactObject, name: string): boolean | undefined {
  const value = object[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw badRequest(`${name}: must be true or false`);
  return value;
}

/** A string field; numbers (exact text) are refused so that a UUID or a name is never a number by accident. */
export function stringField(object: ExactObject, name: string, required: boolean): string | undefined {
  const value = object[name];
  if (value === undefined || value === null) {
    if (required) throw badRequest(`${name}: required, a string`);
    return undefined;
  }
  if (typeof value !== 'string' || NUMBER.test(value)) throw badRequest(`${name}: must be a string`);
  return value;
}
