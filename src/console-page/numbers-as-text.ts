/**
 * `JSON.parse` of a body whose numbers are exact decimals (TradingView's formats write prices as bare
 * JSON numbers): every number comes back as its own text, never through a float.
 */
export function parseNumbersAsText(json: string): unknown {
  let quoted = '';
  let from = 0;
  for (let at = 0; at < json.length; at++) {
    const char = json[at];
    if (char === '"') {
      // Skip the string, escapes included: a digit inside it is no number.
      for (at++; at < json.length && json[at] !== '"'; at++) if (json[at] === '\\') at++;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      const end = json.slice(at).search(/[^-+0-9.eE]/);
      const stop = end < 0 ? json.length : at + end;
      quoted += `${json.slice(from, at)}"${json.slice(at, stop)}"`;
      from = stop;
      at = stop - 1;
    }
  }
  return JSON.parse(quoted + json.slice(from));
}
