import { applyDecorators } from '@nestjs/common';
import { IsEmail, IsIn, IsInt, IsString, IsUrl, Matches, Max, Min, MinLength } from 'class-validator';
import { EnvBoolean, EnvNumber } from './env-transforms';

/**
 * One decorator per kind of setting: each parses the environment's text where the kind needs it,
 * checks the value, and gives every failed check the same message, so that a bad key gets one reason.
 */

interface Bounds {
  readonly min: number;
  /** Unset: no upper bound. */
  readonly max?: number;
}

/** An integer number of milliseconds within `bounds`. */
export function Milliseconds(bounds: Bounds): PropertyDecorator {
  return integerWithin(bounds, `must be an integer number of milliseconds${rangeText(bounds)}`);
}

/** A TCP port; 0 lets the system choose one. */
export function Port(): PropertyDecorator {
  return integerWithin({ min: 0, max: 65535 }, 'must be an integer port number from 0 to 65535');
}

/** An integer within `bounds`: a count, a limit, a seed. */
export function Integer(bounds: Bounds): PropertyDecorator {
  return integerWithin(bounds, `must be an integer${rangeText(bounds)}`);
}

/** `true` or `false`; `1` and `0` are read as the same. */
export function Flag(): PropertyDecorator {
  return applyDecorators(EnvBoolean(), IsIn([true, false], { message: 'must be true or false' }));
}

/** One of `values`, exactly as written. */
export function OneOf(values: readonly string[]): PropertyDecorator {
  return IsIn(values, { message: `must be one of ${values.join(', ')}` });
}

/** An absolute URL with one of `schemes` (`['redis', 'rediss']`); the host need not have a dot. */
export function Url(schemes: readonly string[]): PropertyDecorator {
  const options = { require_tld: false, require_protocol: true, protocols: [...schemes] };
  const message = `must be a URL starting with ${orList(schemes.map((scheme) => `${scheme}://`))}`;
  return IsUrl(options, { message });
}

/** 1 to `maxLength` letters, digits and the characters of `punctuation`, such as a key prefix. */
export function Identifier(maxLength: number, punctuation: string): PropertyDecorator {
  const characters = `A-Za-z0-9${punctuation.replace(/[\\\]^-]/g, '\\$&')}`;
  const pattern = new RegExp(`^[${characters}]{1,${maxLength}}$`);
  const message = `must be 1-${maxLength} letters, digits, ${orList([...punctuation], ' ')}`;
  return Matches(pattern, { message });
}

/** An email address. */
export function Email(): PropertyDecorator {
  return IsEmail({}, { message: 'must be an email address such as api@exchange.example' });
}

/** Text matching `pattern`, described to the operator as `description`. */
export function Format(pattern: RegExp, description: string): PropertyDecorator {
  return Matches(pattern, { message: `must be ${description}` });
}

/** Text of at least one character: a host name, a login. */
export function Text(): PropertyDecorator {
  const message = 'must be non-empty text';
  return applyDecorators(IsString({ message }), MinLength(1, { message }));
}

/** The path of a file, read and checked where the setting is used. */
export function FilePath(): PropertyDecorator {
  return IsString({ message: 'must be a file path' });
}

function integerWithin(bounds: Bounds, message: string): PropertyDecorator {
  const checks = [EnvNumber(), IsInt({ message }), Min(bounds.min, { message })];
  if (bounds.max !== undefined) checks.push(Max(bounds.max, { message }));
  return applyDecorators(...checks);
}

function rangeText({ min, max }: Bounds): string {
  return max === undefined ? `, ${min} or more` : ` from ${min} to ${max}`;
}

/** `a, b or c`; `separator` between all but the last two. */
function orList(items: readonly string[], separator = ', '): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(separator)} or ${items.at(-1)}`;
}
