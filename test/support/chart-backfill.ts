import { retentionHorizon } from '../../src/ingest/chart-backfill';
import { DAY_MS } from '../../src/market/trade-window';
import type { RunningApp } from '../../src/start-app';
import { BAR_ARCHIVE, BarArchive } from '../../src/store/bar-archive';
import { waitFor } from './fault-run';

/** `CHART_HISTORY_DAYS` unset. */
const DEFAULT_HISTORY_DAYS = 365;

/** Waits until the chart backfill of `instrument` reaches back to the default retention's horizon. */
export async function untilBackfilled(
  app: RunningApp,
  instrument: string,
  timeoutMs = 120_000,
): Promise<void> {
  const archive = app.app.get<BarArchive>(BAR_ARCHIVE);
  await waitFor(
    async () =>
      ((await archive.readBackfill(instrument)).coveredFrom ?? Infinity) <=
      retentionHorizon(Date.now(), DEFAULT_HISTORY_DAYS * DAY_MS),
    'the backfill done',
    timeoutMs,
    200,
  );
}
