import { Logger } from '@nestjs/common';
import { MarketInfo } from '../../market/market-info';
import { GatewayClient, GatewayConnectionState } from '../../upstream/gateway/gateway-client';
import { level2Subscription } from '../../upstream/gateway/market-data-subscriptions';
import { BookFeed, BookFeedListener, BookFeedSubscription } from './book-feed';

/** Levels per side asked for: small windows leave levels behind on the real gateway. */
const FULL_DEPTH = 100_000;

/**
 * Books from the gateway's Level 2 feed: the SubscribeLevel2 reply is the snapshot, Level2UpdateEvents
 * the deltas. A dropped connection interrupts every book until the gateway subscribes them again.
 */
export class GatewayBookFeed implements BookFeed {
  readonly name = 'gateway';
  private readonly logger = new Logger(GatewayBookFeed.name);
  private readonly listeners = new Set<BookFeedListener>();
  private wasConnected = false;

  constructor(private readonly gateway: GatewayClient) {
    gateway.onStateChange((state: GatewayConnectionState) => {
      if (state === 'connected') this.wasConnected = true;
      else if (this.wasConnected) {
        this.wasConnected = false;
        for (const listener of this.listeners) listener.onInterrupted(`gateway ${state}`);
      }
    });
  }

  open(market: MarketInfo, listener: BookFeedListener): BookFeedSubscription {
    const ref = market.gateway;
    if (!ref) throw new Error(`${market.instrument} is not listed by the gateway, so it has no Level 2 feed`);
    const subscription = this.gateway.subscribe(
      level2Subscription(
        { instrument: { instrumentId: ref.instrumentId, instrument: market.instrument }, depth: FULL_DEPTH },
        { onBook: (message) => listener.onMessage(message), onError: (error) => listener.onMalformed(error) },
      ),
    );
    this.listeners.add(listener);
    return {
      restart: () => {
        subscription.restart().catch((error: unknown) => {
          this.logger.warn(
            `${market.instrument}: Level 2 resubscription refused: ${(error as Error).message}`,
          );
        });
      },
      close: () => {
        this.listeners.delete(listener);
        subscription.close().catch(() => undefined);
      },
    };
  }
}
