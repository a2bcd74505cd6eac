import { Inject, Injectable, Logger } from '@nestjs/common';
import { CandleSource } from '../candle-source';
import { IngestedInstruments } from '../ingested-instruments';
import { SerialWork } from '../serial-work';
import { ShutdownSignal } from '../shutdown-signal';
import { OWNER_REQUESTS, OwnerRequest, OwnerRequests } from './owner-request';

/**
 * Does what the scheduled jobs ask of an instrument's owner, for the instruments this replica
 * ingests: a book check against a REST snapshot, or fresh candles where there is no trade feed.
 */
@Injectable()
export class OwnerRequestHandler {
  private readonly logger = new Logger(OwnerRequestHandler.name);

  constructor(
    @Inject(OWNER_REQUESTS) private readonly requests: OwnerRequests,
    @Inject(IngestedInstruments) private readonly instruments: IngestedInstruments,
    @Inject(SerialWork) private readonly ownerWork: SerialWork,
    @Inject(CandleSource) private readonly candles: CandleSource,
    @Inject(ShutdownSignal) private readonly shutdown: ShutdownSignal,
  ) {}

  start(): void {
    this.requests.start((request) => this.handle(request));
  }

  /** No more requests heard, then the work under way is over. */
  async stop(): Promise<void> {
    await this.requests.stop();
    await this.ownerWork.stop();
  }

  handle(request: OwnerRequest): void {
    for (const instrument of request.instruments) {
      const pipeline = this.instruments.pipeline(instrument);
      if (!pipeline) continue;
      if (request.kind === 'verify')
        this.ownerWork.add(`verify:${instrument}`, () => this.verify(instrument));
      else if (pipeline.tradeFeed === 'unavailable') this.candles.ask(instrument);
    }
  }

  /** Checks the book against a REST snapshot, if this replica still owns the instrument. */
  private async verify(instrument: string): Promise<void> {
    const pipeline = this.instruments.pipeline(instrument);
    if (!pipeline) return;
    try {
      await pipeline.verify();
    } catch (error) {
      // At shutdown the snapshot's request is aborted on purpose: nothing to tell.
      if (this.shutdown.stopping) return;
      this.logger.warn(
        `${pipeline.instrument}: book check skipped, REST snapshot failed: ${(error as Error).message}`,
      );
    }
  }
}
