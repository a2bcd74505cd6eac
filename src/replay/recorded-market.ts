import { MessageType } from '@microsoft/signalr';
import { BookMessage, PriceLevel } from '../market/book-update';
import { BookSynchronizer } from '../market/book-synchronizer';
import { GatewayInstrument } from '../market/gateway-records';
import { SyncState } from '../market/sync-state';
import { Trade } from '../market/trade';
import { RecordedItem } from '../recording/recording-format';
import { checkpointOf, checkpointSnapshot, finishLoad } from './checkpoint-snapshot';
import { parseExactJson } from '../upstream/exact-json';
import { decodeFrame, frameNamed, FrameType, IncomingFrame } from '../upstream/gateway/gateway-frame';
import { decodeInstruments } from '../upstream/gateway/instruments-codec';
import { decodeLevel2Snapshot, decodeLevel2Update, hasLevel2Rows } from '../upstream/gateway/level2-codec';
import { LEVEL2_EVENT, TRADE_EVENTS } from '../upstream/gateway/market-data-subscriptions';
import { decodeTradeHistory, tradesFromExecutions } from '../upstream/gateway/trade-history-codec';
import { decodeTrades, hasTradesOf } from '../upstream/gateway/trade-rows-codec';
import { BookItem, bookMessageOf } from '../upstream/hub/book-item-codec';
import { ExactJsonHubProtocol, RECORD_SEPARATOR } from '../upstream/hub/exact-json-hub-protocol';
import { decodeDepth } from '../upstream/rest/depth-codec';

/** A feed that went down and, unless `to` is undefined, came back. */
export interface FeedGap {
  readonly feed: string;
  readonly from: number;
  to?: number;
}

/** The published listing figures of a market, as recorded, and when. */
export interface PublishedFigures {
  readonly at: number;
  readonly figures: unknown;
}

const TRADE_EVENT_NAMES: ReadonlySet<string> = new Set(TRADE_EVENTS);

/**
 * One market rebuilt from a recording, record by record in the order they arrived: its book through
 * the same synchronizer and decoders the ingest ran (hub items, or the gateway's Level 2, and REST
 * snapshots), its trades from the gateway's frames, its published figures, and the feed gaps.
 */
/** The key of a trade history execution's market, as it stands in the frame's text (its payload a JSON string). */
const HISTORY_INSTRUMENT_KEY = '\\"InstrumentId\\":';

export class RecordedMarket {
  /** The hub's `Book` items and the REST snapshots. */
  private readonly hubBook: BookSynchronizer;
  /** The gateway's Level 2, for an ingest that took its books from there. */
  private readonly gatewayBook: BookSynchronizer;
  private hubMessages = 0;
  private gatewayId?: number;
  private readonly names = new Map<number, string>();
  private readonly trades = new Map<string, Trade>();
  private readonly protocol = new ExactJsonHubProtocol();
  private readonly depthPath: string;
  readonly gaps: FeedGap[] = [];
  published?: PublishedFigures;
  /** When a record last told of this market. */
  lastEventAt?: number;

  constructor(
    readonly instrument: string,
    startedAt: number,
  ) {
    this.hubBook = new BookSynchronizer(instrument, startedAt);
    this.gatewayBook = new BookSynchronizer(instrument, startedAt);
    this.depthPath = `/marketdata/instruments/${encodeURIComponent(instrument)}/depth`;
  }

  take(item: RecordedItem): void {
    if (item.kind === 'gap') return this.gap(item.source ?? 'feed', item.data === 'up', item.at);
    // The synchronizers' timers (a missing version waited for) run on the recording's clock.
    this.hubBook.tick(item.at);
    this.gatewayBook.tick(item.at);
    switch (item.kind) {
      case 'checkpoint':
        if (item.instrument === this.instrument) this.checkpoint(item);
        return;
      case 'hub':
        if (item.instrument === this.instrument) this.hubItem(item.data, item.at);
        return;
      case 'rest':
        if (item.source === this.depthPath) this.restSnapshot(item.data, item.at);
        return;
      case 'frame':
        this.frame(item.data, item.at);
        return;
      case 'published':
        if (item.instrument === this.instrument)
          this.published = { at: item.at, figures: JSON.parse(item.data) as unknown };
        return;
    }
  }

  /** The book at the last record taken: the hub's, unless only the gateway's Level 2 told of it. */
  book(): { version: number; state: SyncState; bids: PriceLevel[]; asks: PriceLevel[] } {
    const sync = this.hubMessages > 0 || this.gatewayId === undefined ? this.hubBook : this.gatewayBook;
    return {
      version: sync.book.version,
      state: sync.state,
      bids: sync.book.levels('bid'),
      asks: sync.book.levels('ask'),
    };
  }

  /** The newest `count` trades known, newest first. */
  lastTrades(count: number): Trade[] {
    return [...this.trades.values()]
      .sort((a, b) => b.time - a.time || compareIds(b.id, a.id))
      .slice(0, count);
  }

  private checkpoint(item: RecordedItem): void {
    const checkpoint = checkpointOf(item);
    for (const trade of checkpoint.trades ?? []) this.trades.set(trade.id, trade);
    if (checkpoint.published) this.published = checkpoint.published;
    const snapshot = checkpointSnapshot(item, checkpoint);
    if (!snapshot) return;
    this.hubBook.onRestSnapshot(snapshot, item.at);
    finishLoad(this.hubBook, item.at);
    this.lastEventAt = item.at;
  }

  private hubItem(record: string, at: number): void {
    const [message] = this.protocol.parseMessages(record + RECORD_SEPARATOR, null);
    if (message?.type !== MessageType.StreamItem) return;
    let book: BookMessage;
    try {
      book = bookMessageOf(message.item as BookItem, at, this.instrument);
    } catch {
      return;
    }
    this.hubMessages++;
    this.lastEventAt = at;
    this.hubBook.onStreamMessage(book, at);
    finishLoad(this.hubBook, at);
  }

  private restSnapshot(text: string, at: number): void {
    let snapshot: BookMessage;
    try {
      snapshot = decodeDepth(parseExactJson(text), at);
    } catch {
      return;
    }
    this.lastEventAt = at;
    this.hubBook.onRestSnapshot(snapshot, at);
    finishLoad(this.hubBook, at);
    this.gatewayBook.onRestSnapshot(snapshot, at);
    finishLoad(this.gatewayBook, at);
  }

  private frame(text: string, at: number): void {
    if (this.historyOfAnother(text)) return;
    const decoded = decodeFrame(text);
    if (!decoded.ok || decoded.frame.type === FrameType.Error) return;
    const frame = decoded.frame;
    try {
      if (frame.name === 'GetInstruments') this.instruments(decodeInstruments(frame.payload));
      else if (this.gatewayId !== undefined) this.marketFrame(frame, this.gatewayId, at);
    } catch {
      // A frame the ingest could not read either changed nothing.
    }
  }

  /**
   * A trade history reply of another market, told from its text: the ingest asks for one market at a
   * time, and the replies are most of a file's start, too long to decode for nothing.
   */
  private historyOfAnother(text: string): boolean {
    if (this.gatewayId === undefined || !frameNamed(text, 'GetTradesHistory')) return false;
    const key = text.indexOf(HISTORY_INSTRUMENT_KEY);
    if (key < 0) return false;
    return Number.parseInt(text.slice(key + HISTORY_INSTRUMENT_KEY.length, key + 40), 10) !== this.gatewayId;
  }

  private marketFrame(frame: IncomingFrame, id: number, at: number): void {
    const ref = { instrumentId: id, instrument: this.instrument };
    const { name, payload } = frame;
    if (name === 'SubscribeLevel2' || name === 'GetL2Snapshot' || name === LEVEL2_EVENT) {
      if (!hasLevel2Rows(payload, id)) return;
      const message =
        name === LEVEL2_EVENT ? decodeLevel2Update(payload, ref, at) : decodeLevel2Snapshot(payload, ref, at);
      if (!message) return;
      this.lastEventAt = at;
      if (name === LEVEL2_EVENT) this.gatewayBook.onStreamMessage(message, at);
      else this.gatewayBook.onRestSnapshot(message, at);
      finishLoad(this.gatewayBook, at);
    } else if (name === 'SubscribeTrades' || TRADE_EVENT_NAMES.has(name)) {
      if (hasTradesOf(payload, id)) this.addTrades(decodeTrades(payload, this.names, name), at);
    } else if (name === 'GetTradesHistory') {
      this.addTrades(tradesFromExecutions(decodeTradeHistory(payload), this.names), at);
    }
  }

  private addTrades(trades: readonly Trade[], at: number): void {
    for (const trade of trades) if (trade.instrument === this.instrument) this.trades.set(trade.id, trade);
    if (trades.length > 0) this.lastEventAt = at;
  }

  /** The gateway's id of this market: the instrument whose products are its base and quote, or whose symbol is both. */
  private instruments(instruments: readonly GatewayInstrument[]): void {
    const [base, quote] = this.instrument.toUpperCase().split('_');
    const match =
      instruments.find((i) => i.baseSymbol.toUpperCase() === base && i.quoteSymbol.toUpperCase() === quote) ??
      instruments.find((i) => i.symbol.toUpperCase().replace(/[-_/]/g, '') === `${base}${quote}`);
    if (!match) return;
    this.gatewayId = match.instrumentId;
    this.names.set(match.instrumentId, this.instrument);
  }

  private gap(feed: string, up: boolean, at: number): void {
    const open = this.gaps.find((gap) => gap.feed === feed && gap.to === undefined);
    if (up && open) open.to = at;
    else if (!up && !open) this.gaps.push({ feed, from: at });
  }
}

function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
