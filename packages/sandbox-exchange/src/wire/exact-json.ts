/** A parsed JSON value in which every number is kept as the exact text the sender wrote. */
export type ExactJson = string | boolean | null | ExactJson[] | { [key: string]: ExactJson };

/** Deeper arrays and objects are refused as malformed rather than overflowing the stack. */
const MAX_NESTING = 1000;

/**
 * JSON.parse with every number replaced by its source text (Node 21+ hands it to the reviver), so
 * 0.1 or an 18-decimal amount keeps every digit. A repeated key keeps its last value; malformed text
 * throws a SyntaxError.
 */
export function parseExactJson(text: string): ExactJson {
  refuseDeepNesting(text);
  return JSON.parse(text, keepNumberText) as ExactJson;
}

export function isJsonObject(value: ExactJson | undefined): value is { [key: string]: ExactJson } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keepNumberText(_key: string, value: unknown, context?: { source: string }): unknown {
  return typeof value === 'number' ? context?.source : value;
}

/** JSON.parse recurses when it calls a reviver, so nesting outside strings is counted first. */
function refuseDeepNesting(text: string): void {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '[' || char === '{') {
      if (++depth > MAX_NESTING)
        throw new SyntaxError(`JSON nested deeper than ${MAX_NESTING} levels at position ${at}`);
    } else if (char === ']' || char === '}') {
      depth--;
    }
  }
}
