import { AppConfig } from '../config/app-config';

export interface UpstreamCredentials {
  readonly email: string;
  readonly password: string;
}

/** Where the exchange's three interfaces are, and the gateway login if there is one. */
export interface UpstreamSettings {
  /** Root of the REST interface and the hubs, possibly with a path. */
  readonly baseUrl: string;
  /** Root of the login call. */
  readonly authUrl: string;
  /** Root of the websocket gateway. */
  readonly wsUrl: string;
  readonly credentials?: UpstreamCredentials;
  /** The exchange is the in-process sandbox (`SANDBOX=true`): simulated prices, for a trial. */
  readonly sandbox: boolean;
}

/** The sandbox's default user, which the service logs in as when it runs the sandbox itself. */
const SANDBOX_DEMO_USER: UpstreamCredentials = { email: 'demo@example.com', password: 'demo' };

/**
 * The configured exchange: the login root defaults to the origin of the base URL and the gateway root
 * to the same origin with a websocket scheme. With `SANDBOX` the in-process `sandbox` is the exchange,
 * and its demo user the login unless other credentials are set.
 */
export function resolveUpstream(
  config: AppConfig,
  sandbox?: { readonly baseUrl: string; readonly authUrl: string; readonly wsUrl: string },
): UpstreamSettings {
  const configured =
    config.UPSTREAM_EMAIL && config.UPSTREAM_PASSWORD
      ? { email: config.UPSTREAM_EMAIL, password: config.UPSTREAM_PASSWORD }
      : undefined;
  if (config.UPSTREAM_BASE_URL) {
    const origin = new URL(config.UPSTREAM_BASE_URL).origin;
    return {
      baseUrl: config.UPSTREAM_BASE_URL,
      authUrl: config.UPSTREAM_AUTH_URL ?? origin,
      wsUrl: config.UPSTREAM_WS_URL ?? origin.replace(/^http/, 'ws'),
      credentials: configured,
      sandbox: false,
    };
  }
  if (!sandbox)
    throw new Error('no upstream: set UPSTREAM_BASE_URL, or SANDBOX=true to run the sandbox in-process');
  return {
    baseUrl: sandbox.baseUrl,
    authUrl: sandbox.authUrl,
    wsUrl: sandbox.wsUrl,
    credentials: configured ?? SANDBOX_DEMO_USER,
    sandbox: true,
  };
}
