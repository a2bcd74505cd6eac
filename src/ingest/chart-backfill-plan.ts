import { DAY_MS } from '../market/trade-window';

export const HOUR_MS = 3_600_000;
/** Whole hours of 1-minute candles that one request brings: 960 minutes, within the 1,000 it holds. */
export const HOURS_PER_CALL = 16;
const CALL_MS = HOURS_PER_CALL * HOUR_MS;

export function hourStartOf(time: number): number {
  return time - (((time % HOUR_MS) + HOUR_MS) % HOUR_MS);
}

export function dayStartOf(time: number): number {
  return time - (((time % DAY_MS) + DAY_MS) % DAY_MS);
}

/** Hours `[from, to)` that the backfill has filled: from the exchange, from trades, or known to have had no trade. */
export interface CoveredSpan {
  readonly from: number;
  readonly to: number;
}

/** The days from `since` with a trade, as one `1d` request answered it at `askedAt`. */
export interface TradedDays {
  readonly starts: ReadonlySet<number>;
  readonly since: number;
  readonly askedAt: number;
}

export interface BackfillPlanInput {
  /** First hour kept (the retention horizon). */
  readonly horizon: number;
  /** First hour the sealer builds from trades, the one after the hour holding the 24-hour window's start: the backfill stays below it. */
  readonly edge: number;
  /** As stored; absent before the first backfill of the market. */
  readonly span?: CoveredSpan;
  /** Hours of `[span.to, edge)` with a trade-built block. */
  readonly tradeHours: ReadonlySet<number>;
  readonly tradedDays?: TradedDays;
}

/** One 1-minute candle request of whole hours, and the span once its hours are written. */
export interface BackfillFetch {
  readonly from: number;
  readonly to: number;
  readonly spanAfter: CoveredSpan;
}

export interface BackfillStep {
  /** The span as far as it moves without a request (over trade-built hours and days without a trade). */
  readonly span: CoveredSpan;
  /** The request due now, if any: newer hours before older ones. */
  readonly fetch?: BackfillFetch;
  /** A request is due but the traded days must be asked first. */
  readonly needsDays?: boolean;
}

/**
 * What the backfill of one market does next. Above the span, hours that left the sealed part of the
 * window without a trade-built block are asked for oldest first, so that the span stays one piece:
 * at once when a trade-built hour follows them (downtime), else (no trade) once a whole request's
 * worth has gathered. Below it, hours are asked
 * for newest first down to the horizon, only on days that traded, one request per 16 hours of a day.
 */
export function nextBackfillStep(input: BackfillPlanInput): BackfillStep {
  const { edge, tradeHours, tradedDays } = input;
  // With no retention past the day, the horizon may be inside the window: nothing to fill then.
  const horizon = Math.min(input.horizon, edge);
  const stored = input.span ?? { from: edge, to: edge };
  const from = Math.min(Math.max(stored.from, horizon), edge);
  let to = Math.min(Math.max(stored.to, from), edge);
  const traded = (hour: number): boolean | undefined => {
    const day = dayStartOf(hour);
    if (!tradedDays || day < tradedDays.since || day + DAY_MS > tradedDays.askedAt) return undefined;
    return tradedDays.starts.has(day);
  };

  while (to < edge && (tradeHours.has(to) || traded(to) === false)) to += HOUR_MS;
  // A gap closed from above by a trade-built hour (downtime) is asked for at once; one still open
  // (a quiet market) only once a whole request's worth has gathered.
  const closedBy = Math.min(...[...tradeHours].filter((hour) => hour > to && hour < edge));
  const gapEnd = to + CALL_MS <= edge ? to + CALL_MS : closedBy;
  if (Number.isFinite(gapEnd)) {
    if (!tradedDays) return { span: { from, to }, needsDays: true };
    return { span: { from, to }, fetch: { from: to, to: gapEnd, spanAfter: { from, to: gapEnd } } };
  }

  if (from <= horizon) return { span: { from, to } };
  if (!tradedDays) return { span: { from, to }, needsDays: true };
  let newest = from - HOUR_MS;
  while (newest >= horizon && traded(newest) === false) newest -= HOUR_MS;
  if (newest < horizon) return { span: { from: horizon, to } };
  const end = newest + HOUR_MS;
  const start = Math.max(end - CALL_MS, dayStartOf(newest), horizon);
  return { span: { from: end, to }, fetch: { from: start, to: end, spanAfter: { from: start, to } } };
}

/** The hours of 1-minute candles one check asks for: the next whole request of sealed hours, if due. */
export function nextCheckRange(
  checkedTo: number,
  sealedThrough: number | undefined,
): { readonly from: number; readonly to: number } | undefined {
  if (sealedThrough === undefined || checkedTo + CALL_MS > sealedThrough) return undefined;
  return { from: checkedTo, to: checkedTo + CALL_MS };
}
