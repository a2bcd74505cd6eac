import type { ApiReply, ApiRequest } from './api-http';
import { CachedBody, Encoding } from './cached-body';

export interface Freshness {
  /** `Cache-Control` value, in line with how often the data changes. */
  readonly cacheControl: string;
  /** The store is unreachable and the body is the last good state. */
  readonly stale: boolean;
  /** Unix milliseconds: when the upstream data behind the body was last known current (0: never). */
  readonly dataTime: number;
}

/**
 * Bodies shorter than this go uncompressed whatever the client accepts: a few hundred bytes (a top
 * of the book, one ticker, an error) gain a few dozen bytes from gzip or brotli, while each new body
 * costs a compressor's set-up, tens of microseconds, and such bodies change with every write.
 */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Sends a cached body: 304 when the client already has it, else the bytes in the best encoding the
 * client accepts (see MIN_COMPRESSED_BYTES). Every response says how old its data is
 * (`X-Data-Age-Ms`, `Last-Modified`).
 */
export function sendCached(
  request: ApiRequest,
  reply: ApiReply,
  cached: CachedBody,
  freshness: Freshness,
): void {
  reply.header('etag', cached.etag);
  reply.header('cache-control', freshness.cacheControl);
  reply.header('vary', 'Accept-Encoding');
  reply.header(
    'x-data-age-ms',
    freshness.dataTime > 0 ? String(Math.max(0, Date.now() - freshness.dataTime)) : 'unknown',
  );
  if (freshness.dataTime > 0) reply.header('last-modified', httpDate(freshness.dataTime));
  if (freshness.stale) reply.header('x-data-stale', 'true');
  if (matchesEtag(request.headers['if-none-match'], cached.etag)) {
    reply.status(304);
    reply.send();
    return;
  }
  reply.header('content-type', cached.contentType);
  const encoding =
    cached.body.length >= MIN_COMPRESSED_BYTES
      ? preferredEncoding(request.headers['accept-encoding'])
      : undefined;
  if (encoding) {
    reply.header('content-encoding', encoding);
    reply.send(cached.encodedAs(encoding));
  } else {
    reply.send(cached.body);
  }
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

let lastDate = { time: Number.NaN, text: '' };

/** `Last-Modified` text of `time`; the same time comes with every request until the data moves. */
function httpDate(time: number): string {
  if (lastDate.time !== time) lastDate = { time, text: new Date(time).toUTCString() };
  return lastDate.text;
}

/** Parsed `Accept-Encoding` values: clients send few distinct ones, so each is parsed once, not per request. */
const encodingByHeader = new Map<string, Encoding | undefined>();
const MAX_REMEMBERED_HEADERS = 256;
const MAX_REMEMBERED_LENGTH = 200;

/** Brotli when accepted, else gzip, else none; `q=0` refuses an encoding. */
export function preferredEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (!header) return undefined;
  if (typeof header !== 'string' || header.length > MAX_REMEMBERED_LENGTH) return parseEncoding(header);
  if (encodingByHeader.has(header)) return encodingByHeader.get(header);
  const encoding = parseEncoding(header);
  if (encodingByHeader.size >= MAX_REMEMBERED_HEADERS) encodingByHeader.clear();
  encodingByHeader.set(header, encoding);
  return encoding;
}

function parseEncoding(header: string | string[]): Encoding | undefined {
  const accepted = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const quality = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (quality && Number(quality.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}
