import { setFlagsFromString } from 'node:v8';
import 'ioredis';
import { restoreFastStringPrototype } from './fast-string-prototype';

setFlagsFromString('--allow-natives-syntax');
// Compiled after the flag is set, so that it may call V8's own function.
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (
  object: object,
) => boolean;

describe('restoreFastStringPrototype', () => {
  it('gives String.prototype back the fast mode that loading ioredis takes from it', () => {
    // When ioredis no longer does this, the fix has had its day.
    expect(hasFastProperties(String.prototype)).toBe(false);

    restoreFastStringPrototype();

    expect(hasFastProperties(String.prototype)).toBe(true);
  });
});
