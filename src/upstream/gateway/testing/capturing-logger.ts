import { GatewayLogger } from '../gateway-client-options';

/** A logger that keeps every line, for tests that look at what the client logs. */
export class CapturingLogger implements GatewayLogger {
  readonly lines: string[] = [];

  log(message: string): void {
    this.lines.push(`log ${message}`);
  }

  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }

  error(message: string): void {
    this.lines.push(`error ${message}`);
  }
}
