import { Inject, Injectable } from '@nestjs/common';
import { IngestedInstruments } from './ingested-instruments';

const TICK_MS = 50;

/** The passage of time for every pipeline: reorder windows, snapshot waits, confirmations, trade expiry. */
@Injectable()
export class PipelineTicker {
  private timer?: NodeJS.Timeout;

  constructor(@Inject(IngestedInstruments) private readonly instruments: IngestedInstruments) {}

  start(): void {
    this.timer = setInterval(() => {
      // The clock every pipeline is made with (PipelineFactory).
      const now = Date.now();
      for (const pipeline of this.instruments.pipelines()) pipeline.tickIfDue(now);
    }, TICK_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
