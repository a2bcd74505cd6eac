import { PriceLevel } from '../market/book-update';
import { BookSynchronizer } from '../market/book-synchronizer';
import { RecordedItem } from '../recording/recording-format';
import { checkpointSnapshot, finishLoad } from './checkpoint-snapshot';
import { isJsonObject, parseExactJson } from '../upstream/exact-json';
import { decodeFrame, FrameType, IncomingFrame } from '../upstream/gateway/gateway-frame';
import { level2Instruments } from '../upstream/gateway/level2-codec';
import { tradeInstruments } from '../upstream/gateway/trade-rows-codec';
import { LEVEL2_EVENT, TRADE_EVENTS } from '../upstream/gateway/market-data-subscriptions';
import { BookItem, bookMessageOf } from '../upstream/hub/book-item-codec';
import { ExactJsonHubProtocol, RECORD_SEPARATOR } from '../upstream/hub/exact-json-hub-protocol';
import { MessageType } from '@microsoft/signalr';
import { decodeDepth } from '../upstream/rest/depth-codec';

/** Levels as the exchange writes them, `{"price":…,"amount":…}` with every digit, in the order given. */
export function levelsJson(levels: readonly PriceLevel[]): string {
  return `[${levels.map(([price, amount]) => `{"price":${price},"amount":${amount}}`).join(',')}]`;
}

/** What a record played changes for the player's clients. */
export type Played =
  | { readonly to: 'hub'; readonly instrument: string; readonly record: string }
  | { readonly to: 'gateway'; readonly frame: string; readonly instruments: readonly number[] };

/** The gateway's reply to a subscription or call, as recorded: its `o` and, where rows name them, its instruments. */
interface RecordedReply {
  readonly payload: string;
  readonly instruments: readonly number[];
}

const DEPTH_PATH = /^\/marketdata\/instruments\/[^/?]+\/depth$/;

/**
 * The exchange as a recording says it was at the player's clock: each market's book (rebuilt as the
 * ingest rebuilt it), the newest REST answer of each path, and the newest reply of each gateway call
 * for each instrument. `play` takes the next record and says what to send on.
 */
export class PlayerState {
  private readonly books = new Map<string, BookSynchronizer>();
  private readonly rest = new Map<string, string>();
  private readonly replies = new Map<string, RecordedReply[]>();
  private readonly protocol = new ExactJsonHubProtocol();

  play(item: RecordedItem): Played | undefined {
    switch (item.kind) {
      case 'checkpoint':
        this.checkpoint(item);
        return undefined;
      case 'hub':
        return this.hubRecord(item);
      case 'rest':
        this.takeRest(item);
        return undefined;
      case 'frame':
        return this.frame(item.data);
      default:
        return undefined;
    }
  }

  instruments(): string[] {
    return [...this.books.keys()];
  }

  /** The book now, best levels first; undefined for a market the recording never told of. */
  book(instrument: string): { version: number; bids: PriceLevel[]; asks: PriceLevel[] } | undefined {
    const sync = this.books.get(instrument);
    if (!sync) return undefined;
    return { version: sync.book.version, bids: sync.book.levels('bid'), asks: sync.book.levels('ask') };
  }

  /** The newest answer to exactly `pathAndQuery`, else the newest to its path. */
  restAnswer(pathAndQuery: string): string | undefined {
    return this.rest.get(pathAndQuery) ?? this.rest.get(pathAndQuery.split('?')[0]);
  }

  /** The `o` of the newest recorded reply to `name`; for `instrumentId`, the newest whose rows name it. */
  reply(name: string, instrumentId?: number): string | undefined {
    const replies = this.replies.get(name) ?? [];
    for (let index = replies.length - 1; index >= 0; index--) {
      const reply = replies[index];
      if (instrumentId === undefined || reply.instruments.includes(instrumentId)) return reply.payload;
    }
    return undefined;
  }

  private takeRest(item: RecordedItem): void {
    const source = item.source ?? '';
    const path = source.split('?')[0];
    this.rest.set(source, item.data);
    this.rest.set(path, item.data);
    if (!DEPTH_PATH.test(path)) return;
    try {
      const snapshot = decodeDepth(parseExactJson(item.data), item.at);
      const sync = this.sync(snapshot.instrument, item.at);
      sync.onRestSnapshot(snapshot, item.at);
      finishLoad(sync, item.at);
    } catch {
      // An answer the ingest could not read either changed no book.
    }
  }

  private checkpoint(item: RecordedItem): void {
    const snapshot = checkpointSnapshot(item);
    if (!snapshot) return;
    const sync = this.sync(snapshot.instrument, item.at);
    sync.onRestSnapshot(snapshot, item.at);
    finishLoad(sync, item.at);
  }

  private hubRecord(item: RecordedItem): Played | undefined {
    const instrument = item.instrument;
    if (!instrument) return undefined;
    const [message] = this.protocol.parseMessages(item.data + RECORD_SEPARATOR, null);
    if (message?.type !== MessageType.StreamItem) return undefined;
    try {
      const book = bookMessageOf(message.item as BookItem, item.at, instrument);
      const sync = this.sync(instrument, item.at);
      sync.tick(item.at);
      sync.onStreamMessage(book, item.at);
      finishLoad(sync, item.at);
    } catch {
      return undefined;
    }
    return { to: 'hub', instrument, record: item.data };
  }

  private frame(text: string): Played | undefined {
    const decoded = decodeFrame(text);
    if (!decoded.ok || decoded.frame.type === FrameType.Error) return undefined;
    const frame = decoded.frame;
    const instruments = instrumentsOf(frame);
    if (frame.type === FrameType.Event) return { to: 'gateway', frame: text, instruments };
    const envelope = JSON.parse(text) as { o: string };
    const replies = this.replies.get(frame.name) ?? [];
    // Only the newest reply of each instrument (or the newest of a call without instruments) is kept.
    const kept = replies.filter((reply) => reply.instruments.some((id) => !instruments.includes(id)));
    kept.push({ payload: envelope.o, instruments });
    this.replies.set(frame.name, kept);
    return undefined;
  }

  private sync(instrument: string, at: number): BookSynchronizer {
    let sync = this.books.get(instrument);
    if (!sync) {
      sync = new BookSynchronizer(instrument, at);
      this.books.set(instrument, sync);
    }
    return sync;
  }
}

const LEVEL2_NAMES = new Set(['SubscribeLevel2', 'GetL2Snapshot', LEVEL2_EVENT]);
const TRADE_NAMES = new Set(['SubscribeTrades', ...TRADE_EVENTS]);
const LEVEL1_NAMES = new Set(['SubscribeLevel1', 'Level1UpdateEvent']);

/** The gateway instruments a frame's rows name, by the feed its name says it is of. */
function instrumentsOf(frame: IncomingFrame): number[] {
  const { name, payload } = frame;
  let ids: number[] = [];
  if (LEVEL2_NAMES.has(name)) ids = level2Instruments(payload);
  else if (TRADE_NAMES.has(name)) ids = tradeInstruments(payload);
  else if (LEVEL1_NAMES.has(name) && isJsonObject(payload))
    ids = [Number(payload.InstrumentId ?? payload.instrumentId)];
  return [...new Set(ids.filter(Number.isSafeInteger))];
}
