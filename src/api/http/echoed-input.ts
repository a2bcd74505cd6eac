/** Longest part of a client's input an error message repeats. */
export const MAX_ECHOED_CHARACTERS = 64;

/**
 * A client's input as an error message repeats it: quoted, and cut to MAX_ECHOED_CHARACTERS with an
 * ellipsis, so that the message keeps its reason and stays short whatever the client sent.
 */
export function echoedInput(input: string): string {
  const cut = input.length > MAX_ECHOED_CHARACTERS ? `${input.slice(0, MAX_ECHOED_CHARACTERS)}…` : input;
  return JSON.stringify(cut);
}
