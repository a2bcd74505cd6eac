import { Inject, Injectable, Logger } from '@nestjs/common';
import { Tuning } from '../config/tuning';
import { BookSyncOptions } from '../market/book-synchronizer';
import { MarketInfo } from '../market/market-info';
import { RestClient } from '../upstream/rest/rest-client';
import { BOOK_FEED, BookFeed } from './feeds/book-feed';
import { IngestMetrics } from './ingest-metrics';
import { InstrumentPipeline } from './instrument-pipeline';
import { ShutdownSignal } from './shutdown-signal';
import { StateWriter } from './state-writer';

/** How long a newly owned instrument may sync before its first write replaces the stored state anyway. */
const FIRST_WRITE_WAIT_MS = 5_000;

/**
 * How often a quiet book is confirmed current (a write of its head): often enough that its data age
 * stays far below the staleness bound, and no more, since each confirmation is a store write and a
 * change notice to every API replica.
 */
export function confirmIntervalMs(staleAfterMs: number): number {
  return Math.min(5_000, Math.max(100, Math.round(staleAfterMs / 12)));
}

/** Both book feeds answer a (re)subscription with a snapshot, which is cheaper than a REST snapshot. */
const SYNC_OPTIONS: BookSyncOptions = { recovery: 'reopen-stream' };

/** Builds an instrument's pipeline on the book feed, reporting to the metrics and the writer. */
@Injectable()
export class PipelineFactory {
  private readonly logger = new Logger(PipelineFactory.name);

  constructor(
    @Inject(BOOK_FEED) private readonly bookFeed: BookFeed,
    @Inject(RestClient) private readonly rest: RestClient,
    @Inject(IngestMetrics) private readonly metrics: IngestMetrics,
    @Inject(StateWriter) private readonly writer: StateWriter,
    @Inject(ShutdownSignal) private readonly shutdown: ShutdownSignal,
    @Inject(Tuning) private readonly tuning: Tuning,
  ) {}

  create(market: MarketInfo, tradeFeed: 'live' | 'unavailable'): InstrumentPipeline {
    return new InstrumentPipeline({
      market,
      bookFeed: this.bookFeed,
      restSnapshot: (name, withdrawn) =>
        this.rest.depth(name, {
          signal: withdrawn ? AbortSignal.any([this.shutdown.signal, withdrawn]) : this.shutdown.signal,
        }),
      tradeFeed,
      sync: SYNC_OPTIONS,
      now: () => Date.now(),
      events: {
        onResync: (name, reason, detail) => {
          this.metrics.resync(name, reason);
          this.logger.warn(`${name}: book re-syncs after ${reason}${detail ? ` (${detail})` : ''}`);
        },
        // Logged by the upstream client, at most once in a while: a flood of junk must not flood the log.
        onMalformed: (name) => this.metrics.malformedMessage(name),
        onSnapshotFailed: (name, error) => {
          if (!this.shutdown.stopping) this.logger.warn(`${name}: REST snapshot failed: ${error.message}`);
        },
        onMessageApplied: () => this.writer.flushIfDue(),
      },
      firstWriteWaitMs: FIRST_WRITE_WAIT_MS,
      confirmIntervalMs: confirmIntervalMs(this.tuning.staleAfterMs),
    });
  }
}
