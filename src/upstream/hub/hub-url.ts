import { checkBaseUrl, upstreamUrl } from '../upstream-url';

/** Path of the public market-data hub under the exchange's root (spec 4.3). */
export const MARKET_DATA_HUB_PATH = '/marketdata/info';

/**
 * The market-data hub's URL under `baseUrl`, which may carry a path of its own with or without a
 * trailing slash: `https://host:8443/trading` gives `https://host:8443/trading/marketdata/info`.
 * The official client turns http(s) into ws(s) itself.
 */
export function marketDataHubUrl(baseUrl: string): string {
  return upstreamUrl(checkBaseUrl(baseUrl), MARKET_DATA_HUB_PATH);
}
