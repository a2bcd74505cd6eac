import { TradeEventName } from '../config/sandbox-config';
import { MarketSimulator } from '../simulation/market-simulator';
import { SandboxTrade } from '../simulation/sandbox-trade';
import { EncodedPayload } from './frame-codec';
import { GatewayConnection } from './gateway-connection';
import { SubscriberIndex } from './subscriber-index';
import { tradeRow } from './trade-rows';

/**
 * The public trade events of SubscribeTrades, under the configured name (the spec's OrderTradeEvent
 * or the real gateway's TradeDataUpdateEvent): each carries the trades of one execution.
 */
export class TradeFeed {
  readonly subscriptions = new SubscriberIndex<GatewayConnection>();

  constructor(readonly eventName: TradeEventName) {}

  publish(trades: readonly SandboxTrade[], market: MarketSimulator): void {
    const subscribers = this.subscriptions.subscribers(market.spec.instrumentId);
    if (subscribers.size === 0 || trades.length === 0) return;
    const payload = EncodedPayload.of(trades.map((trade) => tradeRow(trade, market.spec)));
    for (const connection of subscribers) connection.event(this.eventName, payload);
  }
}
