import { Inject, Injectable, Logger } from '@nestjs/common';
import { MarketInfo } from '../market/market-info';
import { StateStore, WriteFence } from '../store/state-store';
import { STATE_STORE } from '../store/store.module';
import { CandleSource } from './candle-source';
import { Level1Feed } from './feeds/level1-feed';
import { TRADE_FEED, TradeFeed } from './feeds/trade-feed';
import { IngestedInstruments } from './ingested-instruments';
import { PipelineFactory } from './pipeline-factory';
import { SerialWork } from './serial-work';

/**
 * Opens an instrument's pipeline with the feeds its market has (the trade feed where there is a
 * gateway login and the market has gateway ids, else Level 1 and candles), and closes it again. A
 * pipeline with a trade feed starts its window from the trades the store holds (`seedTrades`).
 */
@Injectable()
export class PipelineOpener {
  private readonly logger = new Logger(PipelineOpener.name);
  private readonly seeds = new SerialWork();

  constructor(
    @Inject(IngestedInstruments) private readonly instruments: IngestedInstruments,
    @Inject(PipelineFactory) private readonly pipelines: PipelineFactory,
    @Inject(TRADE_FEED) private readonly tradeFeed: TradeFeed | null,
    @Inject(Level1Feed) private readonly level1: Level1Feed,
    @Inject(CandleSource) private readonly candles: CandleSource,
    @Inject(STATE_STORE) private readonly store: Pick<StateStore, 'readTrades'>,
  ) {}

  open(market: MarketInfo, fence: WriteFence | undefined): void {
    const instrument = market.instrument;
    const pipeline = this.pipelines.create(market, this.tradeFeed && market.gateway ? 'live' : 'unavailable');
    pipeline.fence = fence;
    const feeds: { close(): void }[] = [];
    try {
      pipeline.start();
      if (this.tradeFeed && market.gateway) {
        feeds.push(
          this.tradeFeed.open(market, {
            onTrades: (trades) => pipeline.addTrades(trades),
            newestTradeTime: () => pipeline.newestTradeTime(),
            onCaughtUp: () => pipeline.markTradesCaughtUp(),
          }),
        );
      } else if (market.gateway) {
        feeds.push(this.level1.open(instrument, market.gateway.instrumentId, pipeline));
      }
    } catch (error) {
      this.logger.error(`${instrument}: cannot be ingested: ${(error as Error).message}`);
      pipeline.stop();
      return;
    }
    this.instruments.add({ market, pipeline, feeds });
    if (pipeline.tradeFeed === 'live') this.seedFromStore(instrument);
    else this.candles.ask(instrument);
  }

  /** One read at a time: a takeover of many busy markets would otherwise hold all their days at once. */
  private seedFromStore(instrument: string): void {
    this.seeds.add(instrument, async () => {
      if (!this.instruments.pipeline(instrument)?.seedable) return;
      try {
        const trades = await this.store.readTrades(instrument);
        this.instruments.pipeline(instrument)?.seedTrades(trades);
      } catch (error) {
        this.logger.warn(
          `${instrument}: stored trades unreadable, the window waits for the exchange's history: ${String(error)}`,
        );
      }
    });
  }

  close(instrument: string): void {
    const entry = this.instruments.get(instrument);
    if (!entry) return;
    this.candles.forget(instrument);
    entry.pipeline.stop();
    for (const feed of entry.feeds) feed.close();
    this.instruments.delete(instrument);
  }

  closeAll(): void {
    for (const instrument of this.instruments.instruments()) this.close(instrument);
  }

  /**
   * A catalogue refreshed while the gateway was out of reach has no gateway ids: pipelines opened
   * from it have no trade feed. Once the ids are back, such a pipeline is opened again with them.
   * A catalogue without them leaves running pipelines as they are, trade feeds included.
   */
  reopenWhereGatewayIdsChanged(listed: ReadonlyMap<string, MarketInfo>): void {
    for (const [instrument, entry] of this.instruments.entries()) {
      const market = listed.get(instrument);
      if (!market?.gateway || sameGatewayRef(entry.market.gateway, market.gateway)) continue;
      this.logger.log(`${instrument}: gateway ids changed in the catalogue, its feeds are opened again`);
      const fence = entry.pipeline.fence;
      this.close(instrument);
      this.open(market, fence);
    }
  }
}

function sameGatewayRef(a: MarketInfo['gateway'], b: MarketInfo['gateway']): boolean {
  return a?.instrumentId === b?.instrumentId && a?.symbol === b?.symbol;
}
