import { readSpecFixture } from '../testing/spec-fixtures';
import { parseExchangeErrors } from './exchange-error-body';

interface ErrorBodyMeaning {
  readonly errors: readonly { readonly code: string; readonly message: string }[];
}

describe('parseExchangeErrors against the specification fixture', () => {
  it('reads the overloaded body with its empty code', () => {
    const { wire, means } = readSpecFixture<ErrorBodyMeaning>('rest/error-overloaded.json');
    expect(parseExchangeErrors(wire)).toEqual(means.errors);
  });
});
