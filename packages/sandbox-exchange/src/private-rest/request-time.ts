/** A request's `ts` differing from the server's clock by this much or more is refused (spec 5.1, 8). */
export const TS_WINDOW_MS = 5_000;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

/** Unix milliseconds of an ISO 8601 `ts`; one without a zone is UTC (the earlier samples send none). */
export function parseRequestTime(text: string): number | undefined {
  const match = ISO_TIME.exec(text);
  if (!match) return undefined;
  const time = Date.parse(match[1] ? text : `${text}Z`);
  return Number.isNaN(time) ? undefined : time;
}
