/** The path families of the exchange's REST, each with its own rate limit (spec 8). */
export const REST_FAMILIES = {
  frontoffice: { prefix: '/frontoffice/', requestsPerSecond: 1 },
  marketdata: { prefix: '/marketdata/', requestsPerSecond: 2 },
} as const;

export type RestFamily = keyof typeof REST_FAMILIES;

export const REST_FAMILY_NAMES = Object.keys(REST_FAMILIES) as RestFamily[];

/** The SignalR hubs live under the same prefixes but are not REST calls, so no REST limit applies. */
const HUB_PATHS = [/^\/marketdata\/info(?:\/|$)/, /^\/frontoffice\/ws(?:\/|$)/];

/** The family of a request target (path with optional query), or undefined outside the REST families. */
export function restFamilyOf(url: string): RestFamily | undefined {
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  if (HUB_PATHS.some((hubPath) => hubPath.test(path))) return undefined;
  return REST_FAMILY_NAMES.find((family) => path.startsWith(REST_FAMILIES[family].prefix));
}
