/** What the stream answers a client that can correct its request: `{"type":"error", code, message}`. */
export interface StreamError<Code extends string = string> {
  /** Short and stable, for programs. */
  readonly code: Code;
  /** For people; may change. */
  readonly message: string;
}

/** A client's text in an error message: JSON-quoted, cut short so that an answer stays small. */
export function quoted(text: string, maxLength = 64): string {
  const shown = text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
  return JSON.stringify(shown);
}
