import { IncomingFrame } from './gateway-frame';
import { InstrumentReader, Subscription } from './gateway-subscription';

interface RoutedEvent {
  readonly read: InstrumentReader;
  readonly byInstrument: Map<number, Set<Subscription>>;
}

/**
 * The client's subscriptions, and which of them an event may concern. Events carry no
 * subscription id, so each subscription's `matches` decides; asking every subscription made each
 * trade event cost O(markets) (hundreds of payload decodings per event at hundreds of markets).
 * A subscription whose spec names its instrument and how to read an event's instruments is asked
 * only for events about that instrument; any other is asked for every event, as before. Every
 * candidate still goes through its own `matches`, so the routing only skips subscriptions that
 * would have said no.
 */
export class SubscriptionRouter {
  private readonly all = new Set<Subscription>();
  private readonly unrouted = new Set<Subscription>();
  /** By event name, then by instrument id. */
  private readonly routed = new Map<string, RoutedEvent>();

  get size(): number {
    return this.all.size;
  }

  [Symbol.iterator](): IterableIterator<Subscription> {
    return this.all.values();
  }

  add(subscription: Subscription): void {
    this.all.add(subscription);
    const { routing, events } = subscription.spec;
    // All routed subscriptions of an event name must read its payload alike; one that reads it
    // otherwise is asked for every event instead.
    if (
      !routing ||
      events.some((name) => this.readerOf(name, routing.instrumentsOf) !== routing.instrumentsOf)
    ) {
      this.unrouted.add(subscription);
      return;
    }
    for (const name of events) {
      const event = this.routed.get(name) ?? { read: routing.instrumentsOf, byInstrument: new Map() };
      this.routed.set(name, event);
      const subscribers = event.byInstrument.get(routing.instrumentId) ?? new Set();
      event.byInstrument.set(routing.instrumentId, subscribers);
      subscribers.add(subscription);
    }
  }

  delete(subscription: Subscription): void {
    if (!this.all.delete(subscription)) return;
    if (this.unrouted.delete(subscription)) return;
    const { routing, events } = subscription.spec;
    if (!routing) return;
    for (const name of events) {
      const event = this.routed.get(name);
      const subscribers = event?.byInstrument.get(routing.instrumentId);
      subscribers?.delete(subscription);
      if (subscribers?.size === 0) event?.byInstrument.delete(routing.instrumentId);
    }
  }

  /** The subscriptions that may take `frame`: each still checks the frame itself. */
  *candidates(frame: IncomingFrame): Generator<Subscription> {
    yield* this.unrouted;
    const event = this.routed.get(frame.name);
    if (!event) return;
    for (const instrumentId of new Set(event.read(frame.payload))) {
      const subscribers = event.byInstrument.get(instrumentId);
      if (subscribers) yield* subscribers;
    }
  }

  private readerOf(name: string, fallback: InstrumentReader): InstrumentReader {
    return this.routed.get(name)?.read ?? fallback;
  }
}
