/**
 * The URL of `path` (starting with `/`) under `baseUrl`, which may carry a path of its own with or
 * without a trailing slash: `https://host:8443/trading` + `/frontoffice/api/info` gives
 * `https://host:8443/trading/frontoffice/api/info`.
 */
export function upstreamUrl(
  baseUrl: string,
  path: string,
  query: Readonly<Record<string, string>> = {},
): string {
  if (!path.startsWith('/')) throw new RangeError(`path must start with /: ${path}`);
  const url = new URL(baseUrl);
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  url.search = new URLSearchParams(query).toString();
  url.hash = '';
  return url.toString();
}

/** Checks that `baseUrl` is an absolute http(s) URL without query or fragment; returns it unchanged. */
export function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new RangeError(`base URL is not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RangeError(`base URL must be http(s): ${baseUrl}`);
  if (url.search || url.hash) throw new RangeError(`base URL must carry no query or fragment: ${baseUrl}`);
  return baseUrl;
}
