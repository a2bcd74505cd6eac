import { request as httpRequest, IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { JsonValue, parseJsonBody } from './json-body';

/** One endpoint's answer as an aggregator's poller sees it: status, headers, timing and the parsed body. */
export interface Fetched {
  /** The path after the base URL, as the report names the endpoint. */
  readonly path: string;
  readonly url: string;
  /** Absent when no answer came (refused, reset, or over the time bound: see `error`). */
  readonly status?: number;
  readonly error?: string;
  readonly elapsedMs: number;
  /** When the body had arrived, on the local clock. */
  readonly receivedAtMs: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly contentEncoding?: string;
  /** Size of the body once decoded. */
  readonly bodyBytes: number;
  /** Absent when the body is not JSON (see `jsonError`). */
  readonly json?: JsonValue;
  readonly jsonError?: string;
}

/**
 * GETs `baseUrl + path` as an aggregator does: no credentials, `Accept: application/json`,
 * `Accept-Encoding: gzip`, the whole answer within `timeoutMs`.
 */
export function fetchEndpoint(baseUrl: string, path: string, timeoutMs: number): Promise<Fetched> {
  const url = `${baseUrl.replace(/\/+$/, '')}${path}`;
  const started = performance.now();
  const base = { path, url, headers: {}, bodyBytes: 0 };
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const request = (url.startsWith('https:') ? httpsRequest : httpRequest)(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json', 'accept-encoding': 'gzip', 'user-agent': 'listing-audit' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) =>
          resolve({ ...base, error: error.message, elapsedMs: elapsed(), receivedAtMs: Date.now() }),
        );
        response.on('end', () => {
          clearTimeout(timer);
          const headers = flatHeaders(response.headers);
          const contentEncoding = headers['content-encoding'];
          const answered = {
            ...base,
            status: response.statusCode,
            headers,
            contentEncoding,
            elapsedMs: elapsed(),
            receivedAtMs: Date.now(),
          };
          let text: string;
          try {
            text = decode(Buffer.concat(chunks), contentEncoding).toString('utf8');
          } catch (error) {
            return resolve({
              ...answered,
              jsonError: `undecodable ${contentEncoding} body: ${String(error)}`,
            });
          }
          try {
            resolve({ ...answered, bodyBytes: Buffer.byteLength(text), json: parseJsonBody(text) });
          } catch (error) {
            resolve({ ...answered, bodyBytes: Buffer.byteLength(text), jsonError: (error as Error).message });
          }
        });
      },
    );
    const timer = setTimeout(
      () => request.destroy(new Error(`no whole answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    request.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ...base, error: error.message, elapsedMs: elapsed(), receivedAtMs: Date.now() });
    });
    request.end();
  });
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      return body;
  }
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}
