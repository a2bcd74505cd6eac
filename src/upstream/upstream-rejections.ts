import { Counter, Registry } from 'prom-client';

/** Which of the exchange's interfaces sent the input. */
export type RejectionSource = 'hub' | 'gateway' | 'rest';

/**
 * Why input was rejected, one short word per kind of fault (a metric label, so the set is fixed):
 * `binary` a binary frame where text was expected; `not-json` the message, frame or body is not
 * JSON; `unterminated` a hub record without its separator; `invalid-message` a hub message whose
 * envelope breaks the protocol; `invalid-frame` a gateway frame whose envelope (`m`, `i`, `o`) does;
 * `payload-not-json` a gateway `o` that is not JSON; `invalid-item` a hub `Book` item;
 * `invalid-payload` a gateway payload; `invalid-body` a REST body; `invalid-market` one market of
 * the REST market list (the others are kept).
 */
export type RejectionReason =
  | 'binary'
  | 'not-json'
  | 'unterminated'
  | 'invalid-message'
  | 'invalid-frame'
  | 'payload-not-json'
  | 'invalid-item'
  | 'invalid-payload'
  | 'invalid-body'
  | 'invalid-market';

/** Where a client reports input from the exchange that it could not read and skipped. */
export interface RejectionSink {
  /** `detail` is the log line: what was skipped and why; it must not hold credentials or tokens. */
  rejected(source: RejectionSource, reason: RejectionReason, detail: string): void;
}

export interface RejectionLogger {
  warn(message: string): void;
}

export interface UpstreamRejectionsOptions {
  /** Where the counter lives; without one the rejections are only logged. */
  readonly registry?: Registry;
  /** Each source and reason is logged at most once per this interval (default 10 s); all are counted. */
  readonly logIntervalMs?: number;
  /** Milliseconds of a monotonic or wall clock. */
  readonly now?: () => number;
}

export const REJECTED_METRIC = 'mdg_upstream_rejected_messages_total';
const DEFAULT_LOG_INTERVAL_MS = 10_000;
/** A log line keeps this much of the detail; a frame can hold megabytes. */
const MAX_DETAIL = 500;

interface LogWindow {
  at: number;
  suppressed: number;
}

/**
 * Counts every rejected piece of upstream input in `mdg_upstream_rejected_messages_total{source,reason}`
 * and logs it with its reason, at most once per source and reason per interval: a flood of junk
 * costs one line per interval (which says how many went unlogged), not one line per message.
 */
export class UpstreamRejections implements RejectionSink {
  private readonly counter: Counter<'source' | 'reason'>;
  private readonly windows = new Map<string, LogWindow>();
  private readonly logIntervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly logger: RejectionLogger,
    options: UpstreamRejectionsOptions = {},
  ) {
    this.logIntervalMs = options.logIntervalMs ?? DEFAULT_LOG_INTERVAL_MS;
    this.now = options.now ?? (() => performance.now());
    this.counter = new Counter({
      name: REJECTED_METRIC,
      help: 'Input from the exchange that could not be read and was skipped, by interface (hub, gateway, rest) and reason.',
      labelNames: ['source', 'reason'],
      registers: options.registry ? [options.registry] : [],
    });
  }

  rejected(source: RejectionSource, reason: RejectionReason, detail: string): void {
    this.counter.inc({ source, reason });
    const key = `${source} ${reason}`;
    const at = this.now();
    const window = this.windows.get(key);
    if (window && at - window.at < this.logIntervalMs) {
      window.suppressed += 1;
      return;
    }
    const suppressed = window?.suppressed ?? 0;
    this.windows.set(key, { at, suppressed: 0 });
    const since = suppressed > 0 ? `; ${suppressed} more since the last report` : '';
    this.logger.warn(`${clip(detail)} (rejected: ${source} ${reason}${since})`);
  }
}

function clip(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 3)}...` : text;
}
