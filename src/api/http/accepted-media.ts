/** A media range of an `Accept` header and its weight. */
interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly quality: number;
}

/** Parsed `Accept` values: clients send few distinct ones, so each is parsed once, not per request. */
const rangesByHeader = new Map<string, readonly MediaRange[]>();
const MAX_REMEMBERED_HEADERS = 256;
const MAX_REMEMBERED_LENGTH = 200;

/**
 * Whether a client that sent `header` takes `mediaType` (`type/subtype`), as RFC 9110 says: no
 * header takes anything; otherwise the most specific range that matches (`application/json`, then
 * `application/*`, then `*\/*`) decides, and a weight of 0 refuses.
 */
export function acceptsMedia(header: string | string[] | undefined, mediaType: string): boolean {
  if (header === undefined) return true;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '') return true;
  const [type, subtype] = mediaType.toLowerCase().split('/');
  let best: MediaRange | undefined;
  let bestSpecificity = -1;
  for (const range of mediaRanges(text)) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity > bestSpecificity) {
      best = range;
      bestSpecificity = specificity;
    }
  }
  return best !== undefined && best.quality > 0;
}

function mediaRanges(text: string): readonly MediaRange[] {
  if (text.length > MAX_REMEMBERED_LENGTH) return parseRanges(text);
  let ranges = rangesByHeader.get(text);
  if (!ranges) {
    ranges = parseRanges(text);
    if (rangesByHeader.size >= MAX_REMEMBERED_HEADERS) rangesByHeader.clear();
    rangesByHeader.set(text, ranges);
  }
  return ranges;
}

function parseRanges(text: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of text.split(',')) {
    const [range, ...params] = part.split(';');
    const [type, subtype, extra] = range.trim().toLowerCase().split('/');
    if (!type || !subtype || extra !== undefined) continue;
    const weight = params.map((param) => param.trim().toLowerCase()).find((param) => param.startsWith('q='));
    const quality = weight === undefined ? 1 : Number(weight.slice(2));
    ranges.push({ type, subtype, quality: Number.isNaN(quality) ? 1 : quality });
  }
  return ranges;
}
