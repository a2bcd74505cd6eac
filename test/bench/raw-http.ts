import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** The bytes as sent, still compressed when `Content-Encoding` says so. */
  readonly body: Buffer;
}

/** One GET with exactly `headers`; unlike fetch, it neither adds `Accept-Encoding` nor decompresses. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const call = request(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers))
          if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: response.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks) });
      });
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end();
  });
}

/** What the gateway sent for one path, plain and gzipped, of one state version (one ETag). */
export interface RecordedResponse {
  readonly path: string;
  /** Response headers but those of the connection (`Date`, `Connection`, `Keep-Alive`). */
  readonly plainHeaders: Record<string, string>;
  readonly plainBody: Buffer;
  readonly gzipHeaders: Record<string, string>;
  readonly gzipBody: Buffer;
}

const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * Fetches `path` plain and gzipped until both answers have the same ETag (a moving market may
 * change the state between the two) and checks that the gzipped bytes are the plain ones.
 */
export async function recordResponse(baseUrl: string, path: string): Promise<RecordedResponse> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const plain = await rawGet(baseUrl + path, { 'accept-encoding': 'identity' });
    const gzip = await rawGet(baseUrl + path, { 'accept-encoding': 'gzip' });
    if (plain.status !== 200 || gzip.status !== 200)
      throw new Error(`${path}: status ${plain.status} plain, ${gzip.status} gzip`);
    if (gzip.headers['content-encoding'] !== 'gzip') throw new Error(`${path}: gzip was not sent`);
    if (plain.headers.etag !== gzip.headers.etag) continue;
    if (!gunzipSync(gzip.body).equals(plain.body))
      throw new Error(`${path}: the gzipped body is not the plain one of the same ETag`);
    return {
      path,
      plainHeaders: withoutConnectionHeaders(plain.headers),
      plainBody: plain.body,
      gzipHeaders: withoutConnectionHeaders(gzip.headers),
      gzipBody: gzip.body,
    };
  }
  throw new Error(`${path}: the state kept changing between two requests`);
}

function withoutConnectionHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CONNECTION_HEADERS.has(name)));
}
