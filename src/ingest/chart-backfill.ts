import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DAY_MS } from '../market/trade-window';
import { ZERO, toDecimal } from '../market/decimal';
import { BackfillState, BarArchive, HourBlock } from '../store/bar-archive';
import { RequestBudget } from '../upstream/rest/request-budget';
import { RestClient } from '../upstream/rest/rest-client';
import { mismatchingBars } from './chart-bar-check';
import { exchangeHourBlocks, exchangeMinuteBars } from './chart-backfill-bars';
import {
  CoveredSpan,
  dayStartOf,
  HOUR_MS,
  hourStartOf,
  nextBackfillStep,
  nextCheckRange,
  TradedDays,
} from './chart-backfill-plan';
import { SerialWork } from './serial-work';

export interface ChartBackfillOptions {
  /** Days a UTC day's bars are kept after it ends (`CHART_HISTORY_DAYS`): the backfill goes back this far. */
  readonly historyDays: number;
  /** How often a step (at most one request) may be queued with the owner's REST work. */
  readonly stepMs?: number;
  /** How long a market waits after a failed request before it is asked again. */
  readonly retryMs?: number;
  /** Wall clock, Unix milliseconds. */
  readonly now?: () => number;
}

export interface ChartBackfillDeps {
  /** The instruments this process ingests now. */
  readonly instruments: () => readonly string[];
  readonly rest: Pick<RestClient, 'history'>;
  readonly archive: BarArchive;
  readonly budget: Pick<RequestBudget, 'usage'>;
  readonly ownerWork: SerialWork;
  readonly signal: AbortSignal;
  /** Bars of a check that differ, zero included. */
  readonly countMismatches: (instrument: string, bars: number) => void;
}

export const DEFAULT_BACKFILL_STEP_MS = 1_000;
export const DEFAULT_BACKFILL_RETRY_MS = 60_000;
const MAX_CANDLES = 1000;

/** What this process knows of one market between steps. */
interface MarketProgress {
  /** Nothing to do before this (Unix milliseconds): the next hour, or a retry's time. */
  dueAt: number;
  tradedDays?: TradedDays;
  /** End of the hours checked against the exchange's candles. */
  checkedTo?: number;
  failing: boolean;
}

/**
 * Fills the bar archive of the markets this process ingests with the exchange's 1-minute candles for
 * the hours before its own trades, back to the retention horizon, and checks the trade-built hours
 * against the same candles. One step at a time, each at most one request, queued with the owner's
 * other REST work only when that queue is empty and nobody waits for the /marketdata/ budget: book
 * snapshots go first. Progress is in the archive's backfill state, so a restart goes on from there;
 * a failed request moves nothing and is asked again later.
 */
export class ChartBackfill implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ChartBackfill.name);
  private readonly historyMs: number;
  private readonly stepMs: number;
  private readonly retryMs: number;
  private readonly now: () => number;
  private readonly progress = new Map<string, MarketProgress>();
  private timer?: NodeJS.Timeout;
  private queued = false;
  /** Where the next step starts looking, so that every market gets its turn. */
  private cursor = 0;

  constructor(
    private readonly deps: ChartBackfillDeps,
    options: ChartBackfillOptions,
  ) {
    if (!(options.historyDays >= 0)) throw new RangeError('historyDays must not be negative');
    this.historyMs = options.historyDays * DAY_MS;
    this.stepMs = options.stepMs ?? DEFAULT_BACKFILL_STEP_MS;
    this.retryMs = options.retryMs ?? DEFAULT_BACKFILL_RETRY_MS;
    this.now = options.now ?? Date.now;
  }

  onApplicationBootstrap(): void {
    this.timer ??= setInterval(() => this.tick(), this.stepMs);
    this.timer.unref();
  }

  /** No step queued from now on; the one under way ends with the owner's work (or its request's abort). */
  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Queues one step unless one waits already or other REST work does. */
  tick(): void {
    if (this.queued || this.deps.signal.aborted || this.deps.ownerWork.size > 0) return;
    this.queued = true;
    this.deps.ownerWork.add('chart-backfill', () => this.step().finally(() => (this.queued = false)));
  }

  /** Goes through the markets from the cursor until one request was made (or none is due). */
  async step(): Promise<void> {
    const instruments = this.deps.instruments();
    for (const known of this.progress.keys()) if (!instruments.includes(known)) this.progress.delete(known);
    for (let turn = 0; turn < instruments.length; turn++) {
      if (this.deps.signal.aborted) return;
      const index = (this.cursor + turn) % instruments.length;
      const outcome = await this.advance(instruments[index]).catch((error: unknown) => {
        this.logger.warn(
          `${instruments[index]}: chart backfill skipped, bar archive failed: ${String(error)}`,
        );
        return 'idle' as const;
      });
      if (outcome === 'busy') return;
      if (outcome === 'asked') {
        this.cursor = index + 1;
        return;
      }
    }
  }

  /** `asked`: one request made; `busy`: one is due but others wait for the budget; `idle`: none due. */
  private async advance(instrument: string): Promise<'asked' | 'busy' | 'idle'> {
    const now = this.now();
    let progress = this.progress.get(instrument);
    if (!progress) this.progress.set(instrument, (progress = { dueAt: 0, failing: false }));
    if (progress.dueAt > now) return 'idle';
    const { archive } = this.deps;
    const state = await archive.readBackfill(instrument);
    // The hour holding the window's start is not the sealer's (it cannot see that hour whole): it is ours.
    const edge = hourStartOf(now - DAY_MS) + HOUR_MS;
    const horizon = retentionHorizon(now, this.historyMs);

    progress.checkedTo = Math.max(progress.checkedTo ?? edge, horizon);
    const check = nextCheckRange(progress.checkedTo, state.sealedThrough);
    if (check) {
      if (!(await this.budgetFree())) return 'busy';
      await this.request(instrument, progress, () => this.check(instrument, progress, check));
      return 'asked';
    }

    const stored = spanOf(state);
    const top = stored?.to ?? edge;
    const tradeHours =
      top < edge ? tradeBuilt(await archive.readHours(instrument, top, edge)) : new Set<number>();
    const step = nextBackfillStep({
      horizon,
      edge,
      span: stored,
      tradeHours,
      tradedDays: progress.tradedDays,
    });
    if (!sameSpan(step.span, stored)) await this.saveSpan(instrument, step.span);
    if (!step.needsDays && !step.fetch) {
      progress.dueAt = hourStartOf(now) + HOUR_MS;
      return 'idle';
    }
    if (!(await this.budgetFree())) return 'busy';
    if (step.needsDays) {
      await this.request(instrument, progress, async () => {
        progress.tradedDays = await this.tradedDays(instrument, horizon, now);
      });
    } else {
      const fetch = step.fetch!;
      await this.request(instrument, progress, async () => {
        const bars = exchangeMinuteBars(await this.minuteCandles(instrument, fetch.from, fetch.to));
        const skip = tradeBuilt(await archive.readHours(instrument, fetch.from, fetch.to));
        const blocks = exchangeHourBlocks(bars, fetch.from, fetch.to, skip);
        if (blocks.length > 0) await archive.writeHours(instrument, blocks);
        await this.saveSpan(instrument, fetch.spanAfter);
      });
    }
    return 'asked';
  }

  /** Compares the trade-built hours of `range` with the exchange's candles, bar by bar. */
  private async check(
    instrument: string,
    progress: MarketProgress,
    range: { readonly from: number; readonly to: number },
  ): Promise<void> {
    const exchange = exchangeMinuteBars(await this.minuteCandles(instrument, range.from, range.to));
    const blocks = (await this.deps.archive.readHours(instrument, range.from, range.to)).filter(
      (block) => block.source === 'trades',
    );
    let mismatches = 0;
    for (const block of blocks) {
      const hourEnd = block.hourStart + HOUR_MS;
      const exchangeHour = exchange.filter((bar) => bar.start >= block.hourStart && bar.start < hourEnd);
      mismatches += mismatchingBars(block.bars, exchangeHour);
    }
    this.deps.countMismatches(instrument, mismatches);
    if (mismatches > 0) {
      this.logger.warn(
        `${instrument}: ${mismatches} trade-built 1-minute bars of ${new Date(range.from).toISOString()} to ${new Date(range.to).toISOString()} differ from the exchange's candles`,
      );
      await this.deps.archive.writeBackfill(instrument, {
        mismatchFoundAt: this.now(),
        mismatchFrom: range.from,
        mismatchTo: range.to,
        mismatchBars: mismatches,
      });
    }
    progress.checkedTo = range.to;
  }

  /** Runs one request's work; a failure leaves the progress where it was and waits `retryMs`. */
  private async request(
    instrument: string,
    progress: MarketProgress,
    work: () => Promise<void>,
  ): Promise<void> {
    try {
      await work();
      if (progress.failing) this.logger.log(`${instrument}: chart backfill goes on`);
      progress.failing = false;
    } catch (error) {
      if (this.deps.signal.aborted) return;
      progress.dueAt = this.now() + this.retryMs;
      if (!progress.failing)
        this.logger.warn(
          `${instrument}: chart backfill request failed, asked again later: ${(error as Error).message}`,
        );
      progress.failing = true;
    }
  }

  private async tradedDays(instrument: string, horizon: number, now: number): Promise<TradedDays> {
    const today = dayStartOf(now);
    const since = Math.max(dayStartOf(horizon), today - (MAX_CANDLES - 1) * DAY_MS);
    const count = (today - since) / DAY_MS + 1;
    const candles = await this.deps.rest.history(
      instrument,
      { start: since, end: now, interval: '1d', count },
      { signal: this.deps.signal },
    );
    const starts = new Set<number>();
    for (const candle of candles)
      if (!toDecimal(candle.volume).eq(ZERO)) starts.add(dayStartOf(candle.start));
    return { starts, since, askedAt: now };
  }

  private minuteCandles(instrument: string, from: number, to: number) {
    return this.deps.rest.history(
      instrument,
      { start: from, end: to, interval: '1m', count: MAX_CANDLES },
      { signal: this.deps.signal },
    );
  }

  private async budgetFree(): Promise<boolean> {
    const usage = await this.deps.budget.usage();
    return !usage.some((family) => family.family === 'marketdata' && family.waiting > 0);
  }

  /** Only the backfill's own fields: the archive merges them with the sealer's. */
  private saveSpan(instrument: string, span: CoveredSpan): Promise<void> {
    return this.deps.archive.writeBackfill(instrument, { coveredFrom: span.from, coveredTo: span.to });
  }
}

/** The first hour the archive keeps: a UTC day is kept `historyMs` after it ends. */
export function retentionHorizon(now: number, historyMs: number): number {
  return dayStartOf(now - historyMs);
}

function spanOf(state: BackfillState): CoveredSpan | undefined {
  if (state.coveredFrom === undefined || state.coveredTo === undefined) return undefined;
  return { from: state.coveredFrom, to: state.coveredTo };
}

function sameSpan(a: CoveredSpan, b: CoveredSpan | undefined): boolean {
  return a.from === b?.from && a.to === b.to;
}

function tradeBuilt(blocks: readonly HourBlock[]): Set<number> {
  return new Set(blocks.filter((block) => block.source === 'trades').map((block) => block.hourStart));
}
