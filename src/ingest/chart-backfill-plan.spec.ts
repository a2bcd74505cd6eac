import { HOUR_MS, nextBackfillStep, nextCheckRange } from './chart-backfill-plan';

const at = (day: number, hour: number) => Date.UTC(2026, 0, day, hour);
const horizon = at(1, 0);
const edge = at(5, 12);
const allDays = {
  starts: new Set([at(1, 0), at(2, 0), at(3, 0), at(4, 0), at(5, 0)]),
  since: at(1, 0),
  askedAt: at(6, 13),
};

describe('nextBackfillStep', () => {
  it('asks for the traded days before its first request', () => {
    expect(nextBackfillStep({ horizon, edge, tradeHours: new Set() })).toEqual({
      span: { from: edge, to: edge },
      needsDays: true,
    });
  });

  it('goes down from the edge newest first, within one day, 16 hours at most', () => {
    const step = nextBackfillStep({ horizon, edge, tradeHours: new Set(), tradedDays: allDays });
    expect(step.fetch).toEqual({ from: at(5, 0), to: edge, spanAfter: { from: at(5, 0), to: edge } });

    const next = nextBackfillStep({
      horizon,
      edge,
      span: { from: at(5, 0), to: edge },
      tradeHours: new Set(),
      tradedDays: allDays,
    });
    expect(next.fetch).toEqual({ from: at(4, 8), to: at(5, 0), spanAfter: { from: at(4, 8), to: edge } });
  });

  it('skips days without a trade without a request, and stops at the horizon', () => {
    const days = { starts: new Set([at(2, 0)]), since: at(1, 0), askedAt: at(6, 13) };
    const step = nextBackfillStep({
      horizon,
      edge,
      span: { from: at(5, 0), to: edge },
      tradeHours: new Set(),
      tradedDays: days,
    });
    expect(step).toEqual({
      span: { from: at(3, 0), to: edge },
      fetch: { from: at(2, 8), to: at(3, 0), spanAfter: { from: at(2, 8), to: edge } },
    });

    const done = nextBackfillStep({
      horizon,
      edge,
      span: { from: at(2, 0), to: edge },
      tradeHours: new Set(),
      tradedDays: days,
    });
    expect(done).toEqual({ span: { from: horizon, to: edge } });
  });

  it('moves over trade-built hours above the span, and waits for a whole request of other hours', () => {
    const span = { from: horizon, to: at(4, 20) };
    const tradeHours = new Set([at(4, 20), at(4, 21)]);
    expect(nextBackfillStep({ horizon, edge, span, tradeHours, tradedDays: allDays })).toEqual({
      span: { from: horizon, to: at(4, 22) },
    });
    const later = edge + 2 * HOUR_MS;
    expect(nextBackfillStep({ horizon, edge: later, span, tradeHours, tradedDays: allDays }).fetch).toEqual({
      from: at(4, 22),
      to: at(5, 14),
      spanAfter: { from: horizon, to: at(5, 14) },
    });
  });

  it('asks at once for a gap that a trade-built hour closes from above', () => {
    const span = { from: horizon, to: at(5, 0) };
    const tradeHours = new Set([at(5, 3), at(5, 4)]);
    expect(nextBackfillStep({ horizon, edge, span, tradeHours, tradedDays: allDays })).toEqual({
      span,
      fetch: { from: at(5, 0), to: at(5, 3), spanAfter: { from: horizon, to: at(5, 3) } },
    });
  });

  it('keeps within the retention when the horizon passed the span', () => {
    const step = nextBackfillStep({
      horizon: at(2, 0),
      edge,
      span: { from: horizon, to: edge },
      tradeHours: new Set(),
    });
    expect(step).toEqual({ span: { from: at(2, 0), to: edge } });
  });

  it('does nothing when the horizon is inside the window', () => {
    expect(nextBackfillStep({ horizon: at(6, 0), edge, tradeHours: new Set(), tradedDays: allDays })).toEqual(
      {
        span: { from: edge, to: edge },
      },
    );
  });

  it('asks for the hours of days older than the traded days it knows', () => {
    const days = { starts: new Set<number>(), since: at(3, 0), askedAt: at(6, 13) };
    const step = nextBackfillStep({
      horizon,
      edge,
      span: { from: at(5, 0), to: edge },
      tradeHours: new Set(),
      tradedDays: days,
    });
    expect(step.fetch).toEqual({ from: at(2, 8), to: at(3, 0), spanAfter: { from: at(2, 8), to: edge } });
  });
});

describe('nextCheckRange', () => {
  it('is due once 16 hours are sealed past the last check', () => {
    expect(nextCheckRange(at(5, 0), undefined)).toBeUndefined();
    expect(nextCheckRange(at(5, 0), at(5, 15))).toBeUndefined();
    expect(nextCheckRange(at(5, 0), at(5, 16))).toEqual({ from: at(5, 0), to: at(5, 16) });
  });
});
