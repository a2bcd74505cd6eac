import { Inject, Injectable, Logger } from '@nestjs/common';
import { InstrumentWrite } from '../store/state-store';
import { IngestMetrics } from './ingest-metrics';
import { IngestRecorder } from './ingest-recorder';
import { INSTRUMENT_OWNERSHIP, InstrumentOwnership } from './ownership/instrument-ownership';
import { WriterEvents } from './state-writer';

/**
 * Counts the writer's outcomes, logs a store outage once, hands fenced instruments to ownership and
 * what was stored to the recorder.
 */
@Injectable()
export class StoreWriteReport implements WriterEvents {
  private readonly logger = new Logger(StoreWriteReport.name);
  private storeFailing = false;

  constructor(
    @Inject(IngestMetrics) private readonly metrics: IngestMetrics,
    @Inject(INSTRUMENT_OWNERSHIP) private readonly ownership: InstrumentOwnership,
    @Inject(IngestRecorder) private readonly recorder: IngestRecorder,
  ) {}

  onWritten(stored: readonly InstrumentWrite[], durationMs: number): void {
    this.recorder.published(stored);
    this.metrics.storeWrites.inc({ result: 'written' });
    this.metrics.storeWriteDuration.observe(durationMs / 1000);
    if (this.storeFailing) this.logger.log('store writes succeed again');
    this.storeFailing = false;
  }

  /** Once per outage: the writer tries again every flush interval. */
  onFailed(error: Error): void {
    this.metrics.storeWrites.inc({ result: 'failed' });
    if (!this.storeFailing)
      this.logger.warn(`store write failed, the instruments will be written whole: ${error.message}`);
    this.storeFailing = true;
  }

  onFenced(instrument: string): void {
    this.metrics.storeWrites.inc({ result: 'fenced' });
    this.ownership.fenced(instrument);
  }
}
