import { Inject, Injectable, Logger } from '@nestjs/common';
import { GatewayClient } from '../../upstream/gateway/gateway-client';
import { level1Subscription } from '../../upstream/gateway/market-data-subscriptions';
import { InstrumentPipeline } from '../instrument-pipeline';

/** Without a trade feed: the exchange's last price and rolling volume from the public Level 1 feed. */
@Injectable()
export class Level1Feed {
  private readonly logger = new Logger(Level1Feed.name);

  constructor(@Inject(GatewayClient) private readonly gateway: GatewayClient) {}

  /** `instrumentId` is the gateway's id of the instrument. */
  open(instrument: string, instrumentId: number, pipeline: InstrumentPipeline): { close(): void } {
    const subscription = this.gateway.subscribe(
      level1Subscription(
        { instrument: { instrumentId, instrument } },
        {
          onLevel1: (level1) =>
            pipeline.setLevel1(
              level1.lastTradedPrice,
              level1.lastTradeTime,
              level1.rolling24hVolume,
              level1.time,
            ),
          onError: (error) => this.logger.warn(`${instrument}: unreadable level 1 skipped: ${error.message}`),
        },
      ),
    );
    return { close: () => void subscription.close().catch(() => undefined) };
  }
}
