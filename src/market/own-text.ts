/**
 * `text` as a string of its own. V8 keeps a substring of 13 characters or more as a view into the
 * string it was cut from, so a price or amount sliced from a websocket frame or a REST page would
 * keep that whole frame or page alive for as long as the level or the trade is held: a deep
 * snapshot until its last level changes, a page of trade history for a day. Shorter strings are
 * copies already.
 */
export function ownText(text: string): string {
  // Concatenating makes a new string that slice() then flattens into fresh storage of its own.
  return text.length < 13 ? text : ` ${text}`.slice(1);
}
