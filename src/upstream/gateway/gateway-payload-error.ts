/** A gateway payload (`o`) that is not shaped as the gateway documents it. */
export class GatewayPayloadError extends Error {
  constructor(
    /** What was being read, e.g. `Level2UpdateEvent`. */
    readonly what: string,
    /** Each problem names where in the payload it is, e.g. `[3][6]: expected a decimal, got "x"`. */
    readonly problems: readonly string[],
  ) {
    super(`malformed ${what}: ${summarize(problems)}`);
    this.name = 'GatewayPayloadError';
  }
}

/** A frame can hold thousands of rows; the message keeps the first few problems and counts the rest. */
const MAX_LISTED = 5;

function summarize(problems: readonly string[]): string {
  const listed = problems.slice(0, MAX_LISTED).join('; ');
  const more = problems.length - MAX_LISTED;
  return more > 0 ? `${listed}; and ${more} more` : listed;
}
