import { Clock } from '../simulation/clock';
import { MarketSimulator } from '../simulation/market-simulator';
import { EncodedPayload } from './frame-codec';
import { GatewayConnection } from './gateway-connection';
import { level1Key, level1Record } from './level1-record';
import { SubscriberIndex } from './subscriber-index';

export const LEVEL1_EVENT = 'Level1UpdateEvent';

/** Level1UpdateEvents of one market are at least this far apart. */
export const LEVEL1_MIN_INTERVAL_MS = 100;

interface Sent {
  readonly key: string;
  readonly at: number;
}

/**
 * Level1UpdateEvent: sent when a market's best bid, best offer or last trade changed, coalesced so
 * that a market sends at most one event per {@link LEVEL1_MIN_INTERVAL_MS}, with the values at the
 * time of sending.
 */
export class Level1Feed {
  readonly subscriptions = new SubscriberIndex<GatewayConnection>();
  private readonly pending = new Map<MarketSimulator, NodeJS.Timeout>();
  private readonly sent = new Map<MarketSimulator, Sent>();

  constructor(private readonly clock: Clock) {}

  /** Subscribes and returns the reply's record. */
  subscribe(connection: GatewayConnection, market: MarketSimulator): EncodedPayload | undefined {
    const first = this.subscriptions.subscribers(market.spec.instrumentId).size === 0;
    if (!this.subscriptions.add(connection, market.spec.instrumentId)) return undefined;
    const now = this.clock.now();
    if (first) this.sent.set(market, { key: level1Key(market), at: now });
    return EncodedPayload.of(level1Record(market, now));
  }

  unsubscribe(connection: GatewayConnection, instrumentId: number): boolean {
    return this.subscriptions.remove(connection, instrumentId);
  }

  /** Something that may move the market's Level 1 happened. */
  touch(market: MarketSimulator): void {
    if (this.pending.has(market)) return;
    if (this.subscriptions.subscribers(market.spec.instrumentId).size === 0) return;
    const last = this.sent.get(market)?.at ?? 0;
    const delay = Math.max(0, last + LEVEL1_MIN_INTERVAL_MS - this.clock.now());
    this.pending.set(
      market,
      setTimeout(() => this.flush(market), delay),
    );
  }

  close(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private flush(market: MarketSimulator): void {
    this.pending.delete(market);
    const subscribers = this.subscriptions.subscribers(market.spec.instrumentId);
    if (subscribers.size === 0) return;
    const key = level1Key(market);
    if (this.sent.get(market)?.key === key) return;
    const now = this.clock.now();
    this.sent.set(market, { key, at: now });
    const payload = EncodedPayload.of(level1Record(market, now));
    for (const connection of subscribers) connection.event(LEVEL1_EVENT, payload);
  }
}
