import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Candle } from '../market/candle-stats';
import { Trade } from '../market/trade';
import { tradeCandles } from '../market/trade-candles';
import { DAY_MS } from '../market/trade-window';
import { BarArchive, HourBlock } from '../store/bar-archive';
import { TradeFeedState } from '../store/state-store';

const HOUR_MS = 3_600_000;
/** An hour is sealed this long after it ends, so that its last trades have arrived. */
export const SEAL_SETTLE_MS = 5_000;
/** How often the sealer looks for hours to seal. */
export const SEAL_INTERVAL_MS = 5_000;
/** Markets sealed at once: their writes overlap, and the pass yields to other work in between. */
const MARKETS_AT_ONCE = 32;

/** What the sealer needs of an instrument's pipeline. */
export interface SealablePipeline {
  readonly instrument: string;
  readonly tradeFeed: TradeFeedState;
  /** The window holds every trade of its 24 hours. */
  readonly tradesComplete: boolean;
  /** The hours (starts) that trades were added to since the last call. */
  takeTradeHours(): number[];
  /** The window's trades with `from <= time < to`, oldest first. */
  tradesBetween(from: number, to: number): Trade[];
}

export interface BarSealerOptions {
  readonly archive: Pick<BarArchive, 'readHours' | 'writeHours' | 'writeBackfill'>;
  /** The pipelines of the instruments this process ingests now. */
  readonly pipelines: () => Iterable<SealablePipeline>;
  readonly now: () => number;
  readonly logger?: Pick<Logger, 'warn'>;
}

/** The sealing of one ingested market, for as long as its pipeline lives. */
interface MarketSeal {
  readonly pipeline: SealablePipeline;
  /** Hours (starts) whose block is to be written from the window once they are due. */
  readonly dirty: Set<number>;
  /** Whether the takeover's look for closed hours without a trade-built block is done. */
  scanned: boolean;
  /** The archive's `sealedThrough` as this sealer last wrote it. */
  sealedThrough?: number;
}

/** What one market's pass did, for the pass's log line. */
type MarketOutcome = { failed?: unknown };

/**
 * Seals each closed UTC hour of the trade window of every market this process ingests with a trade
 * feed into the bar archive, as a `trades` block of the hour's 1-minute bars. An hour is due once
 * it has ended and settled (`SEAL_SETTLE_MS`). It is sealed when the feed added trades to it, and,
 * when the process takes a market over, when the archive has no trade-built block of it yet; a late
 * trade in a sealed hour seals it again. Only hours the window holds whole are sealed, and only once
 * the window is complete, lest a block miss trades. A failed write keeps its hours for the next pass.
 */
export class BarSealer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly markets = new Map<string, MarketSeal>();
  private readonly logger: Pick<Logger, 'warn'>;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(private readonly options: BarSealerOptions) {
    this.logger = options.logger ?? new Logger(BarSealer.name);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), SEAL_INTERVAL_MS);
    this.timer.unref();
  }

  /** Before the store closes: no new pass, and the one under way finished. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass over the markets; a pass asked for while one runs is that one. */
  tick(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    const due: MarketSeal[] = [];
    const current = new Set<string>();
    for (const pipeline of this.options.pipelines()) {
      if (pipeline.tradeFeed !== 'live') continue;
      current.add(pipeline.instrument);
      let seal = this.markets.get(pipeline.instrument);
      // A pipeline opened anew (a takeover, or feeds reopened) starts over with a look at the archive.
      if (seal?.pipeline !== pipeline) {
        seal = { pipeline, dirty: new Set(), scanned: false };
        this.markets.set(pipeline.instrument, seal);
      }
      for (const hour of pipeline.takeTradeHours()) seal.dirty.add(hour);
      if (pipeline.tradesComplete) due.push(seal);
    }
    for (const instrument of this.markets.keys())
      if (!current.has(instrument)) this.markets.delete(instrument);

    const failures: [string, unknown][] = [];
    for (let at = 0; at < due.length; at += MARKETS_AT_ONCE) {
      const outcomes = await Promise.all(
        due.slice(at, at + MARKETS_AT_ONCE).map((seal) => this.sealMarket(seal)),
      );
      outcomes.forEach((outcome, index) => {
        if (outcome.failed !== undefined)
          failures.push([due[at + index].pipeline.instrument, outcome.failed]);
      });
      await nextTurn();
    }
    if (failures.length > 0) {
      const [instrument, error] = failures[0];
      this.logger.warn(
        `bars of ${failures.length} market(s) not sealed yet, retrying (${instrument}: ${String(error)})`,
      );
    }
  }

  private async sealMarket(seal: MarketSeal): Promise<MarketOutcome> {
    const { pipeline, dirty } = seal;
    const instrument = pipeline.instrument;
    const now = this.options.now();
    // Hours before `dueBefore` have ended and settled; from `oldest` on, the window holds them whole.
    const dueBefore = floorHour(now - SEAL_SETTLE_MS);
    const oldest = floorHour(now - DAY_MS) + HOUR_MS;
    let failed: unknown;

    if (!seal.scanned) {
      const tradeBuilt = new Set<number>();
      try {
        const blocks = await this.options.archive.readHours(instrument, oldest, dueBefore);
        for (const block of blocks) if (block.source === 'trades') tradeBuilt.add(block.hourStart);
      } catch (error) {
        // Unreadable blocks (or none read) are sealed again: a fresh block replaces a damaged one.
        failed = error;
      }
      for (let hour = oldest; hour < dueBefore; hour += HOUR_MS) if (!tradeBuilt.has(hour)) dirty.add(hour);
      seal.scanned = true;
    }

    const hours = [...dirty].filter((hour) => hour < dueBefore).sort((a, b) => a - b);
    for (const hour of hours) dirty.delete(hour);
    // Hours the window no longer holds whole cannot be sealed any more.
    const sealable = hours.filter((hour) => hour >= oldest);
    const blocks = sealable.length > 0 ? hourBlocks(pipeline, sealable) : [];
    try {
      if (blocks.length > 0) await this.options.archive.writeHours(instrument, blocks);
    } catch (error) {
      for (const hour of sealable) dirty.add(hour);
      return { failed: error };
    }

    const sealedThrough = dueBefore;
    if (seal.sealedThrough === undefined || sealedThrough > seal.sealedThrough) {
      try {
        await this.options.archive.writeBackfill(instrument, { sealedThrough });
        seal.sealedThrough = sealedThrough;
      } catch (error) {
        failed ??= error;
      }
    }
    return { failed };
  }
}

/** The blocks of `hours` (sorted) from the pipeline's trades; an hour without trades has none. */
function hourBlocks(pipeline: SealablePipeline, hours: readonly number[]): HourBlock[] {
  const wanted = new Set(hours);
  const byHour = new Map<number, Trade[]>();
  for (const trade of pipeline.tradesBetween(hours[0], hours[hours.length - 1] + HOUR_MS)) {
    const hour = floorHour(trade.time);
    if (!wanted.has(hour)) continue;
    const trades = byHour.get(hour);
    if (trades) trades.push(trade);
    else byHour.set(hour, [trade]);
  }
  return [...byHour].map(([hourStart, trades]) => ({
    hourStart,
    source: 'trades',
    bars: tradeCandles(trades, '1m').map(withoutQuoteVolume),
  }));
}

/** Charts show base volume only; the archive does not spend bytes on the quote volume. */
function withoutQuoteVolume({ start, end, open, high, low, close, volume }: Candle): Candle {
  return { start, end, open, high, low, close, volume };
}

function floorHour(time: number): number {
  return time - (((time % HOUR_MS) + HOUR_MS) % HOUR_MS);
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
