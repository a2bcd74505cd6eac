import { Inject, Injectable, Logger } from '@nestjs/common';
import { DAY_MS } from '../market/trade-window';
import { RestClient } from '../upstream/rest/rest-client';
import { IngestedInstruments } from './ingested-instruments';
import { SerialWork } from './serial-work';
import { ShutdownSignal } from './shutdown-signal';

/** Candles of 5 minutes cover 24 hours in one request (288 buckets, within the 1,000 limit). */
const CANDLE_INTERVAL = '5m';
const CANDLE_COUNT = 289;

/**
 * The 24-hour figures of instruments without a trade feed come from the exchange's candles, fetched
 * in turn with the owner's other REST work. A failed fetch keeps the candles the instrument had.
 */
@Injectable()
export class CandleSource {
  private readonly logger = new Logger(CandleSource.name);
  /** Instruments whose last candle refresh failed. */
  private readonly failing = new Set<string>();

  constructor(
    @Inject(IngestedInstruments) private readonly instruments: IngestedInstruments,
    @Inject(RestClient) private readonly rest: RestClient,
    @Inject(SerialWork) private readonly ownerWork: SerialWork,
    @Inject(ShutdownSignal) private readonly shutdown: ShutdownSignal,
  ) {}

  ask(instrument: string): void {
    this.ownerWork.add(`candles:${instrument}`, () => this.refresh(instrument));
  }

  /** The instrument is no longer ingested here: a later failure is a new spell. */
  forget(instrument: string): void {
    this.failing.delete(instrument);
  }

  unavailable(): string[] {
    return [...this.failing];
  }

  async refresh(instrument: string): Promise<void> {
    const pipeline = this.instruments.pipeline(instrument);
    if (!pipeline) return;
    const end = Date.now();
    try {
      const candles = await this.rest.history(
        pipeline.instrument,
        { start: end - DAY_MS, end, interval: CANDLE_INTERVAL, count: CANDLE_COUNT },
        { signal: this.shutdown.signal },
      );
      pipeline.setCandles(candles);
      if (this.failing.delete(instrument)) this.logger.log(`${instrument}: candles available again`);
    } catch (error) {
      if (this.shutdown.stopping) return;
      // Once per spell: the refresh runs again every `candleRefreshMs` (tuning) for every such instrument.
      if (!this.failing.has(instrument))
        this.logger.warn(
          `${instrument}: candles unavailable, the 24-hour figures keep the candles they have: ${(error as Error).message}`,
        );
      this.failing.add(instrument);
    }
  }
}
