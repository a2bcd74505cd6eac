import { LogLevel } from '@microsoft/signalr';
import { officialClientLogger } from './hub-client-logger';

describe('officialClientLogger', () => {
  it("passes the official client's Debug to Critical lines on as detail, and leaves out Trace and None", () => {
    const lines: string[] = [];
    const logger = officialClientLogger({
      log: () => undefined,
      warn: () => undefined,
      debug: (line) => lines.push(line),
    });
    for (const level of [
      LogLevel.Trace,
      LogLevel.Debug,
      LogLevel.Information,
      LogLevel.Warning,
      LogLevel.Error,
      LogLevel.Critical,
      LogLevel.None,
    ])
      logger.log(level, LogLevel[level]);
    expect(lines).toEqual([
      'signalr: Debug',
      'signalr: Information',
      'signalr: Warning',
      'signalr: Error',
      'signalr: Critical',
    ]);
  });
});
