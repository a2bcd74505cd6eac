/** A response body that is not JSON or not shaped as the exchange documents it. */
export class MalformedBodyError extends Error {
  constructor(
    /** What was being read, e.g. `depth`. */
    readonly what: string,
    /** Each problem names where in the body it is, e.g. `bids[3].price: expected a decimal, got "x"`. */
    readonly problems: readonly string[],
  ) {
    super(`malformed ${what} body: ${problems.join('; ')}`);
    this.name = 'MalformedBodyError';
  }
}
