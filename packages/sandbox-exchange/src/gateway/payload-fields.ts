import { Payload } from './frame-codec';
import { GatewayCallError, GatewayErrorCode } from './gateway-result';

const DIGITS = /^\d+$/;

/**
 * A non-negative integer field, or undefined when absent. Integers written as digit strings are
 * accepted too, as some clients send ids that way; anything else is an Invalid Request.
 */
export function optionalInteger(payload: Payload, field: string): number | undefined {
  const value = payload[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && DIGITS.test(value) && Number.isSafeInteger(Number(value)))
    return Number(value);
  throw new GatewayCallError(GatewayErrorCode.InvalidRequest, `${field} must be a non-negative integer`);
}

export function requiredInteger(payload: Payload, field: string): number {
  const value = optionalInteger(payload, field);
  if (value === undefined)
    throw new GatewayCallError(GatewayErrorCode.InvalidRequest, `${field} is required`);
  return value;
}

export function optionalString(payload: Payload, field: string): string | undefined {
  const value = payload[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  throw new GatewayCallError(GatewayErrorCode.InvalidRequest, `${field} must be a string`);
}
