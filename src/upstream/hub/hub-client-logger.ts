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
 * matters itself, while the official client logs each failed reconnect attempt as an error. Its
 * Trace lines are left out: the websocket transport writes one for every message received and
 * sent, which at thousands of book messages a second made the logger's level checks a few per cent
 * of the ingest's CPU, for lines that no level of ours shows.
 */
export function officialClientLogger(logger: HubClientLogger): ILogger {
  return {
    log: (level: LogLevel, message: string) => {
      if (level > LogLevel.Trace && level < LogLevel.None) logger.debug?.(`signalr: ${message}`);
    },
  };
}
