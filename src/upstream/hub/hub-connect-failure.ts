import type { ClientOptions } from 'ws';
import { networkCause } from '../../logging/network-cause';
import type { WebSocketClass } from '../read-batching';

/**
 * `base` with every instance reporting its socket errors to `record`: the official client keeps
 * only a generic text of a websocket that failed to open, whatever the reason.
 */
export function reportingSocketErrors(base: WebSocketClass, record: (error: Error) => void): WebSocketClass {
  return class extends base {
    constructor(address: string | URL, protocols?: string | string[], options?: ClientOptions) {
      super(address, protocols, options);
      this.on('error', record);
    }
  };
}

const UNEXPECTED_RESPONSE = /^Unexpected server response: (\d+)/;

/**
 * Why the hub at `url` could not be connected to, from the official client's `error` and the
 * socket's own error: unreachable (refused, reset, timed out ...), or an HTTP answer that is no
 * websocket upgrade, the one case where the URL may not be a SignalR endpoint.
 */
export function describeHubConnectFailure(url: string, error: unknown, socketError?: Error): string {
  const cause = networkCause(socketError) ?? networkCause(error);
  if (cause) return `market-data hub unreachable at ${url}: ${cause}`;
  const answered = UNEXPECTED_RESPONSE.exec(socketError?.message ?? '');
  if (answered)
    return `market-data hub at ${url} answered the websocket upgrade with HTTP ${answered[1]}: it may not be a SignalR endpoint`;
  if (socketError) return `market-data hub at ${url}: connection failed (${socketError.message})`;
  return `market-data hub at ${url}: connection failed (${error instanceof Error ? error.message : String(error)})`;
}
