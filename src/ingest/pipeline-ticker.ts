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
      for (const pipeline of this.instruments.pipelines()) pipeline.tick();
    }, TICK_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
