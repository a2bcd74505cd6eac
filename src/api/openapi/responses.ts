import type { HeaderObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { MAX_HEADER_BYTES } from '../http/api-server';
import { BODY_LIMIT_BYTES } from '../http/body-limit';

/** Responses and headers shared by the endpoints, as components of the document. */

const integerText: SchemaObject = { type: 'string', pattern: '^[0-9]+$' };

export const HEADERS: Record<string, HeaderObject> = {
  ETag: {
    required: true,
    description:
      'weak tag of the body; the same state gives the same tag, and `If-None-Match` with it gets a 304',
    schema: { type: 'string', examples: ['W/"0R-Imrhxc7WALLJsIJjt2HDkv4o"'] },
  },
  CacheLive: {
    required: true,
    description: '`public, max-age=1`: books, tickers, trades and candles change every second or faster',
    schema: { type: 'string', enum: ['public, max-age=1'] },
  },
  CacheCatalog: {
    required: true,
    description:
      '`public, max-age=60`: assets and market lists change with the catalogue, about once a minute at most',
    schema: { type: 'string', enum: ['public, max-age=60'] },
  },
  NoStore: {
    required: true,
    description: '`no-store`: errors, health, metrics and the listing health are never cached',
    schema: { type: 'string', enum: ['no-store'] },
  },
  DataAge: {
    required: true,
    description: 'milliseconds since the data behind the body was last known current; `unknown` before any',
    schema: { type: 'string', pattern: '^([0-9]+|unknown)$', examples: ['207'] },
  },
  LastModified: {
    description: 'when the data behind the body was last known current (HTTP date); absent before any',
    schema: { type: 'string', examples: ['Thu, 26 Nov 2026 10:21:29 GMT'] },
  },
  DataStale: {
    description:
      '`true` when the body is the last good state: the store cannot be reached, or lost state its writers have not put back yet; absent otherwise',
    schema: { type: 'string', enum: ['true'] },
  },
  DataSource: {
    description:
      '`sandbox` when the data comes from the built-in sandbox exchange: simulated prices, for a trial; absent otherwise',
    schema: { type: 'string', enum: ['sandbox'] },
  },
  RateLimitLimit: {
    description:
      'requests a client may make per minute (`RATE_LIMIT_PER_MINUTE`); absent when there is no limit',
    schema: { ...integerText, examples: ['1200'] },
  },
  RateLimitRemaining: {
    description: "requests left in the client's current window",
    schema: { ...integerText, examples: ['1185'] },
  },
  RateLimitReset: {
    description: "seconds until the client's window ends",
    schema: { ...integerText, examples: ['57'] },
  },
  RetryAfter: {
    description: 'seconds to wait before the next request',
    schema: { ...integerText, examples: ['57'] },
  },
  RequestId: {
    required: true,
    description:
      "the request's id as the logs name it: the caller's own `X-Request-Id` when it is sane, else a new UUID",
    schema: { type: 'string', examples: ['01a2fd66-ed1e-4e85-a0a0-8acaba7bcb39'] },
  },
};

const header = (name: keyof typeof HEADERS): ReferenceObject => ({ $ref: `#/components/headers/${name}` });

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': header('RateLimitLimit'),
  'X-RateLimit-Remaining': header('RateLimitRemaining'),
  'X-RateLimit-Reset': header('RateLimitReset'),
};

/** How long a client may keep an answer: live data a second, the catalogue a minute, a report with ages not at all. */
export type Cache = 'live' | 'catalog' | 'none';

const CACHE_HEADERS: Record<Cache, string> = { live: 'CacheLive', catalog: 'CacheCatalog', none: 'NoStore' };

/** Headers of every answer served from the response cache. */
const cachedHeaders = (cache: Cache) => ({
  ETag: header('ETag'),
  'Cache-Control': header(CACHE_HEADERS[cache]),
  'X-Data-Age-Ms': header('DataAge'),
  'Last-Modified': header('LastModified'),
  'X-Data-Stale': header('DataStale'),
  'X-Data-Source': header('DataSource'),
  'X-Request-Id': header('RequestId'),
  ...RATE_LIMIT_HEADERS,
});

const errorHeaders = {
  'Cache-Control': header('NoStore'),
  'X-Data-Source': header('DataSource'),
  'X-Request-Id': header('RequestId'),
};
/** Of an error the server answers before it hands the request on (a body, a URL too long): no request id. */
const refusalHeaders = { 'Cache-Control': header('NoStore') };

function errorResponse(description: string, code: string, message: string): ResponseObject {
  return {
    description,
    headers: errorHeaders,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorBody' },
        example: { errors: [{ code, message }] },
      },
    },
  };
}

export const ERROR_RESPONSES: Record<string, ResponseObject> = {
  BadRequest: errorResponse(
    'a parameter breaks its rule (codes such as `invalid_depth`, `invalid_level`, `missing_ticker_id`, `bad_request`)',
    'invalid_depth',
    'depth must be 0 (full book) or an even number',
  ),
  NotFound: errorResponse(
    'unknown, unlisted or hidden instrument (`unknown_instrument`, `hidden_instrument`), or no such path (`not_found`)',
    'unknown_instrument',
    'unknown instrument "abc_xyz"',
  ),
  MethodNotAllowed: errorResponse(
    'the API answers GET and HEAD only',
    'method_not_allowed',
    'POST is not allowed; use GET',
  ),
  PayloadTooLarge: {
    ...errorResponse(
      `a body over ${BODY_LIMIT_BYTES} bytes, whatever the method (the API takes none); the connection is closed`,
      'payload_too_large',
      `request body exceeds ${BODY_LIMIT_BYTES} bytes: the API takes none`,
    ),
    headers: refusalHeaders,
  },
  UriTooLong: {
    ...errorResponse(
      `a URL, query string included, over the ${MAX_HEADER_BYTES} bytes the request line and headers may take; the connection is closed`,
      'uri_too_long',
      `request URL (path and query string) exceeds ${MAX_HEADER_BYTES} bytes`,
    ),
    headers: refusalHeaders,
  },
  NotAcceptable: errorResponse(
    "the request's `Accept` excludes `application/json`, the only format served",
    'not_acceptable',
    'only application/json is served',
  ),
  TooManyRequests: {
    ...errorResponse(
      "over the client's per-minute limit (`RATE_LIMIT_PER_MINUTE`)",
      'too_many_requests',
      'rate limit of 1200 requests per minute exceeded; retry in 57 s',
    ),
    headers: { ...errorHeaders, ...RATE_LIMIT_HEADERS, 'Retry-After': header('RetryAfter') },
  },
  Unavailable: errorResponse(
    'no data loaded yet (`no_data`) or the store cannot be reached with nothing held (`store_unavailable`)',
    'no_data',
    'market data is not loaded yet',
  ),
  TradesUnavailable: errorResponse(
    'no data loaded yet (`no_data`), the store cannot be reached (`store_unavailable`), or the gateway has no ' +
      'login to the exchange and so no trade feed (`trade_feed_not_configured`)',
    'trade_feed_not_configured',
    'the trade feed is not configured: the gateway login (UPSTREAM_EMAIL, UPSTREAM_PASSWORD) is missing',
  ),
};

type ErrorResponseName = keyof typeof ERROR_RESPONSES;

const refTo = (name: ErrorResponseName): ReferenceObject => ({ $ref: `#/components/responses/${name}` });

/** What every endpoint can answer of a request it cannot take in: a body, a URL too long. */
const TOO_LARGE = { '413': refTo('PayloadTooLarge'), '414': refTo('UriTooLong') };

/** What every data endpoint can answer besides its own errors. */
const COMMON_ERRORS = {
  '405': refTo('MethodNotAllowed'),
  '406': refTo('NotAcceptable'),
  ...TOO_LARGE,
  '429': refTo('TooManyRequests'),
};

export interface ErrorCases {
  /** Takes a path or query parameter that can be wrong. */
  readonly badRequest?: boolean;
  /** Names an instrument. */
  readonly notFound?: boolean;
  /** Serves trades, which need the trade feed. */
  readonly trades?: boolean;
}

/**
 * The responses of a cached JSON endpoint: 200 with `schema` (a `$ref`) and `example`, 304 for a
 * matching `If-None-Match`, and its errors.
 */
export function cachedJsonResponses(
  description: string,
  schema: ReferenceObject,
  cache: Cache,
  cases: ErrorCases = {},
): Record<string, ResponseObject | ReferenceObject> {
  const headers = cachedHeaders(cache);
  return {
    '200': { description, headers, content: { 'application/json': { schema } } },
    '304': { description: '`If-None-Match` names the current ETag: no body', headers },
    ...(cases.badRequest ? { '400': refTo('BadRequest') } : {}),
    ...(cases.notFound ? { '404': refTo('NotFound') } : {}),
    ...COMMON_ERRORS,
    '503': refTo(cases.trades ? 'TradesUnavailable' : 'Unavailable'),
  };
}

/** 405, 406, 413 and 414 of the health endpoints, which have no rate limit. */
export const HEALTH_ERRORS = {
  '405': refTo('MethodNotAllowed'),
  '406': refTo('NotAcceptable'),
  ...TOO_LARGE,
};

export const NO_STORE_HEADERS = { 'Cache-Control': header('NoStore'), 'X-Request-Id': header('RequestId') };
