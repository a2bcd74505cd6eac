import { BookDelta } from '../simulation/book-delta';
import { MarketSimulator } from '../simulation/market-simulator';
import { EncodedPayload } from './frame-codec';
import { GatewayConnection } from './gateway-connection';
import { deltaRows } from './level2-rows';
import { SubscriberIndex } from './subscriber-index';

export const LEVEL2_EVENT = 'Level2UpdateEvent';

/** Level2UpdateEvent: one event per book delta, serialized once for all of the market's subscribers. */
export class Level2Feed {
  readonly subscriptions = new SubscriberIndex<GatewayConnection>();

  publish(delta: BookDelta, market: MarketSimulator): void {
    const subscribers = this.subscriptions.subscribers(delta.instrumentId);
    if (subscribers.size === 0) return;
    const payload = EncodedPayload.of(deltaRows(delta, market.spec, market.tradeLog.last()?.price));
    for (const connection of subscribers) connection.event(LEVEL2_EVENT, payload);
  }
}
