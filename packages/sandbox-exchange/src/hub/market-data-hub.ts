import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { BookDelta } from '../simulation/book-delta';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { bookDeltaItem, bookSnapshotItem } from './book-item';
import { HubMethodError, HubMethods, StreamSink, stringArguments } from './hub-method';

/**
 * The market-data hub's methods: `Book(instrument)` streams the whole book, then every change of
 * it from the exchange's public delta feed.
 */
@Injectable()
export class MarketDataHub implements OnModuleInit, OnModuleDestroy {
  readonly methods: HubMethods = new Map([['book', (args, sink) => this.book(args, sink)]]);
  private readonly logger = new Logger(MarketDataHub.name);
  private readonly bookStreams = new Map<string, Set<StreamSink>>();
  private unsubscribe?: () => void;

  constructor(@Inject(SandboxExchange) private readonly exchange: SandboxExchange) {}

  onModuleInit(): void {
    this.unsubscribe = this.exchange.deltas.subscribe((delta) => this.publish(delta));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.bookStreams.clear();
  }

  /** Number of open `Book` streams of an instrument. */
  streamCount(instrument: string): number {
    return this.bookStreams.get(instrument)?.size ?? 0;
  }

  private book(args: readonly unknown[], sink: StreamSink): () => void {
    const [instrument] = stringArguments(args, 1);
    const market = this.exchange.market(instrument);
    if (!market) throw new HubMethodError(`Unknown instrument '${instrument}'.`);
    // Deltas are emitted synchronously, so the snapshot and the subscription taken here together
    // neither miss nor repeat a change.
    sink.next(bookSnapshotItem(market));
    let sinks = this.bookStreams.get(instrument);
    if (!sinks) {
      sinks = new Set();
      this.bookStreams.set(instrument, sinks);
    }
    sinks.add(sink);
    return () => {
      sinks.delete(sink);
      if (sinks.size === 0 && this.bookStreams.get(instrument) === sinks) this.bookStreams.delete(instrument);
    };
  }

  private publish(delta: BookDelta): void {
    const sinks = this.bookStreams.get(delta.instrument);
    const market = this.exchange.market(delta.instrument);
    if (!sinks || !market) return;
    const item = bookDeltaItem(market, delta);
    for (const sink of sinks) {
      try {
        sink.next(item);
      } catch (error) {
        // One broken client must not stop the market's flow, which runs this synchronously.
        this.logger.error(`Book item not sent: ${(error as Error).message}`);
      }
    }
  }
}
