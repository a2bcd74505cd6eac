import { Tuning } from '../config/tuning';
import { MarketInfo } from '../market/market-info';
import { DAY_MS } from '../market/trade-window';
import { ScheduledJob } from '../scheduler/scheduled-job';
import { wholeMinutesBefore } from '../store/trade-history';
import { OwnerRequest } from './owner-requests/owner-request';

export const CATALOG_REFRESH_JOB = 'catalog-refresh';
export const BOOK_VERIFY_JOB = 'book-verify';
export const TRADE_TRIM_JOB = 'trade-trim';
export const CANDLE_REFRESH_JOB = 'candle-refresh';

/** What the ingest's scheduled jobs act on. */
export interface IngestJobWork {
  /** Builds the catalogue from the exchange and stores it; every replica hears of it and reconciles. */
  refreshCatalog(): Promise<void>;
  /** The stored catalogue's markets, hidden ones included; none before the first refresh. */
  markets(): Promise<readonly MarketInfo[]>;
  askOwners(request: OwnerRequest): Promise<void>;
  trimTrades(instruments: readonly string[], before: number): Promise<number>;
  now(): number;
}

/**
 * The ingest's periodic work, each job run once per interval across the replicas: the market
 * metadata refresh, the book checks against REST snapshots and the candle refresh (both done by each
 * instrument's owner, which holds the live book), and the trimming of stored trades to 24 hours,
 * which also covers instruments that no replica writes at the moment.
 */
export function ingestJobs(tuning: Tuning, work: IngestJobWork): ScheduledJob[] {
  const listed = async () =>
    (await work.markets()).filter((market) => !market.hidden).map((market) => market.instrument);
  return [
    { name: CATALOG_REFRESH_JOB, everyMs: tuning.catalogRefreshMs, run: () => work.refreshCatalog() },
    {
      name: BOOK_VERIFY_JOB,
      everyMs: tuning.bookVerifyIntervalMs,
      run: async () => work.askOwners({ kind: 'verify', instruments: await listed() }),
    },
    {
      name: CANDLE_REFRESH_JOB,
      everyMs: tuning.candleRefreshMs,
      run: async () => work.askOwners({ kind: 'candles', instruments: await listed() }),
    },
    {
      name: TRADE_TRIM_JOB,
      everyMs: tuning.tradeTrimIntervalMs,
      run: async () => {
        const instruments = (await work.markets()).map((market) => market.instrument);
        await work.trimTrades(instruments, wholeMinutesBefore(work.now() - DAY_MS));
      },
    },
  ];
}
