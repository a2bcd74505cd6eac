import { CheckName } from './check-names';

/** What a check found wrong in one place: a failure, or a warning that does not fail the audit. */
export interface Finding {
  readonly check: CheckName;
  readonly severity: 'fail' | 'warn';
  /** The endpoint and market or field, e.g. `/summary BTC_USDT.last`. */
  readonly where: string;
  readonly detail: string;
}

export function fail(check: CheckName, where: string, detail: string): Finding {
  return { check, severity: 'fail', where, detail };
}

export function warn(check: CheckName, where: string, detail: string): Finding {
  return { check, severity: 'warn', where, detail };
}
