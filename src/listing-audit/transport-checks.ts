import { fail, Finding, warn } from './audit-finding';
import { Fetched } from './http-poller';

/** Bodies below this size may go uncompressed: gzip would not make them smaller, and servers skip it. */
export const GZIP_MIN_BYTES = 1024;
/** Aggregators poll once a minute: a longer max-age lets a cache hand them older data than that. */
export const MAX_CACHE_SECONDS = 60;
/** How far the server's clock (Date, Last-Modified) may be from the local one before it is worth a warning. */
export const CLOCK_SKEW_MS = 60_000;

export interface TransportRules {
  readonly gzipRequired: boolean;
  /** Paths of recommended endpoints: their absence only warns. */
  readonly optionalPaths: ReadonlySet<string>;
  readonly staleAfterMs: number;
}

/** How each answer came: status, authentication, JSON, compression and freshness headers. */
export function checkTransport(fetched: Fetched, rules: TransportRules): Finding[] {
  const where = fetched.path;
  if (fetched.status === undefined) return [fail('endpoints-answer', where, fetched.error ?? 'no answer')];
  if (fetched.status === 401 || fetched.status === 403)
    return [fail('endpoints-answer', where, `${fetched.status}: asks for authentication`)];
  if (fetched.status !== 200) {
    const report = rules.optionalPaths.has(where) ? warn : fail;
    return [report('endpoints-answer', where, `status ${fetched.status}`)];
  }
  return [...checkJson(fetched), ...checkGzip(fetched, rules), ...checkFreshnessHeaders(fetched, rules)];
}

function checkJson(fetched: Fetched): Finding[] {
  const findings: Finding[] = [];
  const type = fetched.headers['content-type'];
  if (type === undefined || !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type))
    findings.push(fail('json-content', fetched.path, `content-type ${type ?? 'absent'}`));
  if (fetched.json === undefined)
    findings.push(
      fail('json-content', fetched.path, `body is not JSON: ${fetched.jsonError ?? 'unreadable'}`),
    );
  return findings;
}

function checkGzip(fetched: Fetched, rules: TransportRules): Finding[] {
  const encoding = fetched.contentEncoding?.trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return [];
  if (encoding !== undefined && encoding !== 'identity')
    return [
      fail('gzip', fetched.path, `answered with Content-Encoding ${encoding}, which was not asked for`),
    ];
  if (fetched.bodyBytes < GZIP_MIN_BYTES) return [];
  const detail = `${fetched.bodyBytes} bytes sent uncompressed to Accept-Encoding: gzip`;
  return [rules.gzipRequired ? fail('gzip', fetched.path, detail) : warn('gzip', fetched.path, detail)];
}

function checkFreshnessHeaders(fetched: Fetched, rules: TransportRules): Finding[] {
  const findings: Finding[] = [];
  const where = fetched.path;
  const date = fetched.headers.date;
  if (date === undefined) findings.push(warn('freshness-headers', where, 'no Date header'));
  else {
    const skew = Date.parse(date) - fetched.receivedAtMs;
    if (Number.isNaN(skew))
      findings.push(warn('freshness-headers', where, `Date "${date}" is not an HTTP date`));
    else if (Math.abs(skew) > CLOCK_SKEW_MS)
      findings.push(
        warn(
          'freshness-headers',
          where,
          `Date "${date}" is ${Math.round(skew / 1000)} s off the local clock`,
        ),
      );
  }
  const cacheControl = fetched.headers['cache-control'];
  if (cacheControl === undefined) findings.push(warn('freshness-headers', where, 'no Cache-Control header'));
  else {
    const maxAge = /(?:^|,)\s*(?:s-)?max-age\s*=\s*"?(\d+)/i.exec(cacheControl);
    if (maxAge !== null && Number(maxAge[1]) > MAX_CACHE_SECONDS)
      findings.push(
        fail(
          'freshness-headers',
          where,
          `Cache-Control "${cacheControl}": over ${MAX_CACHE_SECONDS} s, staler than a poll`,
        ),
      );
  }
  const lastModified = fetched.headers['last-modified'];
  if (lastModified !== undefined) {
    const time = Date.parse(lastModified);
    if (Number.isNaN(time))
      findings.push(warn('freshness-headers', where, `Last-Modified "${lastModified}" is not an HTTP date`));
    else if (time > fetched.receivedAtMs + CLOCK_SKEW_MS)
      findings.push(warn('freshness-headers', where, `Last-Modified "${lastModified}" is in the future`));
  }
  const dataAge = fetched.headers['x-data-age-ms'];
  if (dataAge !== undefined && Number(dataAge) > rules.staleAfterMs)
    findings.push(
      warn('freshness-headers', where, `X-Data-Age-Ms ${dataAge}: older than ${rules.staleAfterMs} ms`),
    );
  return findings;
}
