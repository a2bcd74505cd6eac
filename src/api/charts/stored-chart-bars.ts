import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { Candle } from '../../market/candle-stats';
import { rollUpBars } from '../../market/bars/bar-roll-up';
import { barStartAtOrAfter, countsBack, selectBars } from '../../market/bars/bar-selection';
import { barEnd, barStart, ChartResolution, ONE_DAY, ONE_MINUTE } from '../../market/bars/chart-resolution';
import { MinuteBarMemo } from '../../market/bars/minute-bar-memo';
import { MarketInfo } from '../../market/market-info';
import { TradeRows } from '../../market/trade-columns';
import { DAY_MS } from '../../market/trade-window';
import { BAR_ARCHIVE, BarArchive, BackfillState } from '../../store/bar-archive';
import { ApiError } from '../http/api-error';
import { MarketViews } from '../views/market-views';
import { BarAnswer, BarQuery, ChartBars } from './chart-bars';
import { SettledCache } from './settled-cache';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/**
 * Hours and days that end this long before the window's first minute are cached: the ingest seals
 * an hour again only for a late trade, and a trade is only ever late inside its 24-hour window.
 */
const SETTLE_MARGIN_MS = HOUR_MS;
/** A settled hour or day is read again after this long all the same (a block the store dropped or rewrote). */
const SETTLED_TTL_MS = 5 * 60_000;
/** About 25 MB of decoded 1-minute bars per process; an empty hour counts as one. */
const MAX_CACHED_MINUTE_BARS = 100_000;
const MAX_CACHED_DAYS = 50_000;
/** Hours per archive read, so that a year is read a week at a time. */
const HOURS_PER_READ = 24 * 7;
const DAYS_PER_READ = 7;

/** One request's view of the sources: one clock reading, the trades and the backfill state read once. */
interface Reading {
  readonly instrument: string;
  readonly now: number;
  /** The first minute built from the trade window: minute M is when `M.start > now - 24h`. */
  readonly windowFrom: number;
  /** Hours and days ending at or before this are cached. */
  readonly settledBefore: number;
  backfill(): Promise<BackfillState>;
  trades(): Promise<TradeRows>;
}

/**
 * The bars of the API process: minutes inside the 24-hour window from the trades the listings read
 * (`MarketViews.tradeList`), older ones from the archive's hour blocks, everything longer rolled up
 * from those (days from minutes, weeks and months from days). Settled hours and days (see
 * SETTLE_MARGIN_MS) are cached per process, bounded, and only while the archive's coverage is the
 * same and for SETTLED_TTL_MS; the hours near the window's edge, where a late trade may still seal
 * an hour again, are read on each request, and so are the window's trades (a minute's bar is built
 * again only when its trades changed).
 */
@Injectable()
export class StoredChartBars extends ChartBars {
  private readonly logger = new Logger(StoredChartBars.name);
  private readonly hours = new SettledCache<readonly Candle[]>(MAX_CACHED_MINUTE_BARS, SETTLED_TTL_MS);
  private readonly days = new SettledCache<Candle | undefined>(MAX_CACHED_DAYS, SETTLED_TTL_MS);
  /** Per market, the window's minutes, each built from its trades once (see MinuteBarMemo). */
  private readonly windowMinutes = new Map<string, MinuteBarMemo>();
  private readonly historyMs: number;

  constructor(
    private readonly views: MarketViews,
    @Inject(BAR_ARCHIVE) private readonly archive: BarArchive,
    config: AppConfig,
  ) {
    super();
    // The archive drops a day the retention after its end.
    this.historyMs = (config.CHART_HISTORY_DAYS + 1) * DAY_MS;
  }

  async bars(market: MarketInfo, resolution: ChartResolution, query: BarQuery): Promise<BarAnswer> {
    const reading = this.reading(market.instrument);
    const floor = barStart(await this.historyFloor(reading), resolution);
    // No bar starts after the one now is in.
    const newest = barEnd(barStart(reading.now, resolution), resolution);
    const to = Math.max(floor, Math.min(barStartAtOrAfter(query.to, resolution), newest));
    if (countsBack(query))
      return selectBars(await this.newestBars(reading, resolution, to, query.countback + 1, floor), query);
    const from = Math.min(to, Math.max(floor, barStartAtOrAfter(query.from, resolution)));
    const older = await this.newestBars(reading, resolution, from, 1, floor);
    const inRange = from < to ? await this.barsIn(reading, resolution, from, to) : [];
    return selectBars(older.concat(inRange), query);
  }

  /** A read of the archive; its failure is the client's 503, as the store's is (the cause is logged, never sent). */
  private async fromArchive<T>(instrument: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      this.logger.warn(`${instrument}: the bar archive failed: ${(error as Error).message}`);
      throw ApiError.unavailable(
        'store_unavailable',
        'the market data store cannot be reached; retry shortly',
      );
    }
  }

  private reading(instrument: string): Reading {
    const now = Date.now();
    const windowFrom = barStart(now - DAY_MS, ONE_MINUTE) + MINUTE_MS;
    let backfill: Promise<BackfillState> | undefined;
    let trades: Promise<TradeRows> | undefined;
    return {
      instrument,
      now,
      windowFrom,
      settledBefore: windowFrom - SETTLE_MARGIN_MS,
      backfill: () =>
        (backfill ??= this.fromArchive(instrument, () => this.archive.readBackfill(instrument))),
      trades: () => (trades ??= this.views.tradeList(instrument)),
    };
  }

  /**
   * The oldest time a bar may start at: where the archive's coverage starts, within the retention,
   * and never after the start of the day before the window's first minute.
   */
  private async historyFloor(reading: Reading): Promise<number> {
    const retained = reading.now - this.historyMs;
    const covered = Math.max(retained, (await reading.backfill()).coveredFrom ?? retained);
    return Math.min(covered, barStart(reading.windowFrom - HOUR_MS, ONE_DAY));
  }

  /** Up to `count` of the newest bars starting in `[floor, before)`, read backwards in growing spans. */
  private async newestBars(
    reading: Reading,
    resolution: ChartResolution,
    before: number,
    count: number,
    floor: number,
  ): Promise<Candle[]> {
    const spans: Candle[][] = [];
    let found = 0;
    let end = before;
    let span = Math.max(HOUR_MS, 2 * count * (barEnd(before, resolution) - before));
    while (found < count && end > floor) {
      const start = Math.max(floor, barStart(end - span, resolution));
      const bars = await this.barsIn(reading, resolution, start, end);
      spans.unshift(bars);
      found += bars.length;
      end = start;
      span *= 2;
    }
    const bars = spans.flat();
    return bars.length > count ? bars.slice(bars.length - count) : bars;
  }

  /** The bars of `resolution` starting in `[from, to)`, both bar starts of it. */
  private async barsIn(
    reading: Reading,
    resolution: ChartResolution,
    from: number,
    to: number,
  ): Promise<Candle[]> {
    if (resolution.unit === 'minute') {
      const minutes = await this.minuteBars(reading, from, to, true);
      return resolution.count === 1 ? minutes : rollUpBars(minutes, resolution);
    }
    const days = await this.dailyBars(reading, from, to);
    return resolution.unit === 'day' ? days : rollUpBars(days, resolution);
  }

  /** The 1-minute bars of `[from, to)` (minute starts): the archive's before the window, the trades' inside it. */
  private async minuteBars(
    reading: Reading,
    from: number,
    to: number,
    cacheHours: boolean,
  ): Promise<Candle[]> {
    const archiveTo = Math.min(to, reading.windowFrom);
    const older = from < archiveTo ? await this.archiveMinutes(reading, from, archiveTo, cacheHours) : [];
    const windowFrom = Math.max(from, reading.windowFrom);
    if (windowFrom >= to) return older;
    const trades = await reading.trades();
    let memo = this.windowMinutes.get(reading.instrument);
    if (!memo) this.windowMinutes.set(reading.instrument, (memo = new MinuteBarMemo()));
    memo.dropBefore(reading.windowFrom);
    const newer = memo.minuteBars(trades, windowFrom, to);
    return older.length === 0 ? newer : older.concat(newer);
  }

  private async archiveMinutes(
    reading: Reading,
    from: number,
    to: number,
    cacheHours: boolean,
  ): Promise<Candle[]> {
    const firstHour = from - (from % HOUR_MS);
    const hours = await this.hourBars(reading, firstHour, to, cacheHours);
    const minutes: Candle[] = [];
    for (const bars of hours)
      for (const bar of bars) if (bar.start >= from && bar.start < to) minutes.push(bar);
    return minutes;
  }

  /** The archived bars of each hour from `from` (an hour start) while the hour starts before `to`. */
  private async hourBars(
    reading: Reading,
    from: number,
    to: number,
    cacheHours: boolean,
  ): Promise<(readonly Candle[])[]> {
    const stamp = coverageStamp(await reading.backfill());
    const count = Math.ceil((to - from) / HOUR_MS);
    const hours = new Array<readonly Candle[] | undefined>(count);
    const settled = (index: number) => from + (index + 1) * HOUR_MS <= reading.settledBefore;
    const key = (index: number) => `${reading.instrument}:${from + index * HOUR_MS}`;
    for (let index = 0; index < count; index++)
      if (settled(index)) hours[index] = this.hours.get(key(index), stamp, reading.now)?.value;
    for (const [first, end] of missingRuns(hours, HOURS_PER_READ)) {
      for (let index = first; index < end; index++) hours[index] = [];
      const blocks = await this.fromArchive(reading.instrument, () =>
        this.archive.readHours(reading.instrument, from + first * HOUR_MS, from + end * HOUR_MS),
      );
      for (const block of blocks) hours[(block.hourStart - from) / HOUR_MS] = block.bars;
      if (!cacheHours) continue;
      for (let index = first; index < end; index++) {
        const bars = hours[index] as readonly Candle[];
        if (settled(index)) this.hours.set(key(index), bars, Math.max(1, bars.length), stamp, reading.now);
      }
    }
    return hours as (readonly Candle[])[];
  }

  /** The daily bars of the days in `[from, to)` (day starts), settled ones from the cache when held. */
  private async dailyBars(reading: Reading, from: number, to: number): Promise<Candle[]> {
    const stamp = coverageStamp(await reading.backfill());
    const count = Math.round((to - from) / DAY_MS);
    const days = new Array<Candle | null | undefined>(count);
    const settled = (index: number) => from + (index + 1) * DAY_MS <= reading.settledBefore;
    const key = (index: number) => `${reading.instrument}:${from + index * DAY_MS}`;
    for (let index = 0; index < count; index++) {
      const cached = settled(index) ? this.days.get(key(index), stamp, reading.now) : undefined;
      if (cached) days[index] = cached.value ?? null;
    }
    for (const [first, end] of missingRuns(days, DAYS_PER_READ)) {
      for (let index = first; index < end; index++) days[index] = null;
      // The hours of a settled day are not kept: its daily bar is. Those of the newest days are.
      const minutes = await this.minuteBars(
        reading,
        from + first * DAY_MS,
        from + end * DAY_MS,
        !settled(end - 1),
      );
      for (const day of rollUpBars(minutes, ONE_DAY)) days[(day.start - from) / DAY_MS] = day;
      for (let index = first; index < end; index++)
        if (settled(index)) this.days.set(key(index), days[index] ?? undefined, 1, stamp, reading.now);
    }
    return days.filter((day): day is Candle => !!day);
  }
}

/** What the cache's entries are valid under: a backfill that moved its coverage wrote hours. */
function coverageStamp(state: BackfillState): string {
  return String(state.coveredFrom);
}

/** Runs `[first, end)` of the slots not filled yet, each at most `longest` long. */
function missingRuns(slots: readonly unknown[], longest: number): [number, number][] {
  const runs: [number, number][] = [];
  let index = 0;
  while (index < slots.length) {
    if (slots[index] !== undefined) {
      index++;
      continue;
    }
    const first = index;
    while (index < slots.length && slots[index] === undefined && index - first < longest) index++;
    runs.push([first, index]);
  }
  return runs;
}
