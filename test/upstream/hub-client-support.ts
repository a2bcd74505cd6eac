import { BookMessage } from '../../src/market/book-update';
import { compareCanonical } from '../../src/market/decimal';
import { MarketSimulator, Side } from 'sandbox-exchange';
import { formatUnits } from '../../src/market/fixed-point';
import { MalformedBookItemError } from '../../src/upstream/hub/book-item-codec';
import { BookListener } from '../../src/upstream/hub/book-subscription';
import { HubClient, HubClientOptions, HubClientState } from '../../src/upstream/hub/hub-client';
import { HubClientLogger } from '../../src/upstream/hub/hub-client-logger';

export { waitFor } from '../support/fault-run';

/** Price to amount per side, both canonical decimal text. */
export interface TextBook {
  readonly bids: Map<string, string>;
  readonly asks: Map<string, string>;
}

/**
 * A book rebuilt from a HubClient subscription as its user keeps it: a snapshot replaces the book,
 * a delta sets each level in order, amount "0" deletes it. Keeps everything it was told.
 */
export class RebuiltBook implements BookListener {
  readonly book: TextBook = { bids: new Map(), asks: new Map() };
  readonly messages: BookMessage[] = [];
  readonly interruptions: string[] = [];
  readonly malformed: MalformedBookItemError[] = [];
  version = 0;

  onMessage(message: BookMessage): void {
    this.messages.push(message);
    if (message.snapshot) {
      this.book.bids.clear();
      this.book.asks.clear();
    }
    for (const { side, price, amount } of message.updates) {
      const levels = side === 'bid' ? this.book.bids : this.book.asks;
      if (amount === '0') levels.delete(price);
      else levels.set(price, amount);
    }
    this.version = message.version;
  }

  onInterrupted(reason: string): void {
    this.interruptions.push(reason);
  }

  onMalformed(error: MalformedBookItemError): void {
    this.malformed.push(error);
  }

  get snapshots(): BookMessage[] {
    return this.messages.filter((message) => message.snapshot);
  }

  /** Messages since the latest snapshot, that snapshot first. */
  get sinceSnapshot(): BookMessage[] {
    const last = this.messages.map((message) => message.snapshot).lastIndexOf(true);
    return last < 0 ? [] : this.messages.slice(last);
  }
}

/** The sandbox market's own book, in the form a client rebuilds it. */
export function truthBook(market: MarketSimulator): TextBook {
  const { priceScale, amountScale } = market.spec;
  const side = (which: Side) =>
    new Map(
      [...market.engine.levels(which)].map(
        (level) => [formatUnits(level.price, priceScale), formatUnits(level.amount, amountScale)] as const,
      ),
    );
  return { bids: side(Side.Buy), asks: side(Side.Sell) };
}

/** A book's levels as sorted entries, so that two books compare with toEqual and diff readably. */
export function entries(book: TextBook): { bids: [string, string][]; asks: [string, string][] } {
  const sorted = (side: Map<string, string>) =>
    [...side.entries()].sort(([a], [b]) => compareCanonical(a, b));
  return { bids: sorted(book.bids), asks: sorted(book.asks) };
}

/** Keeps what the client logs, to assert on and to print when a test fails. */
export class RecordingLogger implements HubClientLogger {
  readonly lines: string[] = [];
  log(message: string): void {
    this.lines.push(`log ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }
}

/** A client with retry timings small enough for tests, recording its states. */
export function testHubClient(
  baseUrl: string,
  options: Partial<HubClientOptions> = {},
): { client: HubClient; states: HubClientState[]; logger: RecordingLogger } {
  const logger = new RecordingLogger();
  const client = new HubClient({
    baseUrl,
    reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
    logger,
    ...options,
  });
  const states: HubClientState[] = [];
  client.onStateChange((state) => states.push(state));
  return { client, states, logger };
}
