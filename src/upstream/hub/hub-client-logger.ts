import { ILogger, LogLevel } from '@microsoft/signalr';

/** Where the hub client reports; a Nest Logger fits. */
export interface HubClientLogger {
  /** Connection state changes. */
  log(message: string): void;
  /** Failures the client recovers from by itself: lost connections, malformed messages. */
  warn(message: string): void;
  /** Detail, including the official client's own log. */
  debug?(message: string): void;
}

export const SILENT_HUB_LOGGER: HubClientLogger = { log: () => undefined, warn: () => undefined };

/**
 * The official client's log, passed on as detail only: the hub client reports every failure that
 * matters itself, while the official client logs each failed reconnect attempt as an error.
 */
export function officialClientLogger(logger: HubClientLogger): ILogger {
  return {
    log: (level: LogLevel, message: string) => {
      if (level !== LogLevel.None) logger.debug?.(`signalr: ${message}`);
    },
  };
}
