import { Injectable } from '@nestjs/common';
import { MarketInfo } from '../market/market-info';
import { InstrumentPipeline } from './instrument-pipeline';

/** Per-instrument resources that live and die with the instrument's pipeline. */
export interface IngestedInstrument {
  /** The market as the catalogue described it when the pipeline was opened. */
  readonly market: MarketInfo;
  readonly pipeline: InstrumentPipeline;
  readonly feeds: { close(): void }[];
}

/** The instruments this replica ingests now, each with its pipeline and feeds. */
@Injectable()
export class IngestedInstruments {
  private readonly byInstrument = new Map<string, IngestedInstrument>();

  get(instrument: string): IngestedInstrument | undefined {
    return this.byInstrument.get(instrument);
  }

  pipeline(instrument: string): InstrumentPipeline | undefined {
    return this.byInstrument.get(instrument)?.pipeline;
  }

  pipelines(): InstrumentPipeline[] {
    return [...this.byInstrument.values()].map((entry) => entry.pipeline);
  }

  /** A copy, so that callers may add and remove while they go through it. */
  entries(): [string, IngestedInstrument][] {
    return [...this.byInstrument];
  }

  instruments(): string[] {
    return [...this.byInstrument.keys()];
  }

  add(entry: IngestedInstrument): void {
    this.byInstrument.set(entry.market.instrument, entry);
  }

  delete(instrument: string): void {
    this.byInstrument.delete(instrument);
  }
}
