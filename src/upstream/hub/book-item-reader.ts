import { MessageType, StreamItemMessage } from '@microsoft/signalr';
import { BookMessage, BookSide, LevelUpdate } from '../../market/book-update';
import { ExactJson, isJsonObject, parseExactJson } from '../exact-json';
import { decimalText } from '../json-fields';
import {
  QUOTE,
  BACKSLASH,
  COMMA,
  COLON,
  MINUS,
  DOT,
  ZERO,
  NINE,
  OPEN_BRACE,
  CLOSE_BRACE,
  OPEN_BRACKET,
  CLOSE_BRACKET,
  LOWER_E,
  UPPER_E,
  LOWER_T,
  LOWER_F,
  LOWER_N,
  isDigit,
} from '../json-char-codes';
import { jsonNumberEnd } from '../json-number-end';

/** Marks the items of this reader; no parsed JSON value can hold a symbol. */
const DECODED = Symbol('decoded Book item');

/**
 * A `Book` stream item that the hub protocol read straight from the frame text into its decoded
 * form: instrument in lower case, version, snapshot flag, level updates in canonical decimal text,
 * bids then asks. It holds what `decodeBookItem` would have made of the generic item, and keeps the
 * record so that the generic path can still explain a rejection in its own words.
 *
 * A plain object rather than a class instance: V8 keeps the shape of an object literal for as long as
 * the code that makes it, while the shape a class instance takes on field by field dies with the last
 * instance, at a full collection, and takes the optimised reader with it.
 */
export interface DecodedBookItem {
  readonly decoded: typeof DECODED;
  readonly instrument: string;
  readonly version: number;
  readonly snapshot: boolean;
  readonly updates: readonly LevelUpdate[];
  /** The hub message the item came from, without its record separator. */
  readonly record: string;
}

export function isDecodedBookItem(value: unknown): value is DecodedBookItem {
  return typeof value === 'object' && value !== null && (value as { decoded?: unknown }).decoded === DECODED;
}

/** The book message, or undefined when the item is of another instrument than the expected one. */
export function decodedBookMessage(
  item: DecodedBookItem,
  receivedAt: number,
  expectedInstrument?: string,
): BookMessage | undefined {
  if (expectedInstrument !== undefined && item.instrument !== expectedInstrument.toLowerCase())
    return undefined;
  const { instrument, version, snapshot, updates } = item;
  return { instrument, version, snapshot, updates, time: receivedAt };
}

/** The item as the generic exact reader makes it. */
export function genericBookItem(item: DecodedBookItem): ExactJson | undefined {
  const message = parseExactJson(item.record);
  return isJsonObject(message) ? message.item : undefined;
}

/**
 * Reads a hub message that is a stream item of the exchange's `Book` shape in one pass over its text,
 * into its decoded form, each level's price and amount sliced from the text as canonical decimals,
 * without the generic JSON values that `parseExactJson` builds and `decodeBookItem` reads again. Only the plain form the hub writes is taken:
 * keys without escapes and each at most once, prices and amounts as JSON numbers or numeric strings,
 * `version` as a JSON integer, `snapshot` as a boolean, other item and level fields as scalars.
 * Anything else, valid or not, gives undefined so that the generic reader decides, which keeps its
 * results and its error messages the only ones there are.
 */
export function readBookStreamItem(record: string): StreamItemMessage | undefined {
  try {
    return reader.read(record);
  } catch (error) {
    if (error === NOT_PLAIN) return undefined;
    throw error;
  } finally {
    reader.release();
  }
}

/** Thrown inside the reader when the text leaves the plain form; never escapes it. */
const NOT_PLAIN = Symbol('not a plain Book stream item');

const enum ItemKey {
  Other,
  Instrument,
  Bids,
  Asks,
  Version,
  Snapshot,
}

class BookItemReader {
  private text = '';
  private at = 0;
  /** Bounds of the last quoted text read, quotes excluded. */
  private textStart = 0;
  private textEnd = 0;

  read(record: string): StreamItemMessage {
    this.text = record;
    this.at = 0;
    return this.hubForm() ?? this.anyForm();
  }

  /** Lets go of the record, which the decoded item keeps only as long as it is itself kept. */
  release(): void {
    this.text = '';
  }

  /**
   * The message exactly as the hub writes it, its keys matched as they stand rather than read and
   * looked up one by one: `{"type":2,"invocationId":"…","item":{"instrument":"…","bids":[…],
   * "asks":[…],"version":…,"askTotalAmount":…,"bidTotalAmount":…,"snapshot":…}}`. undefined where
   * the text departs from it (then `anyForm` reads it from the start).
   */
  private hubForm(): StreamItemMessage | undefined {
    if (!this.text.startsWith('{"type":2,"invocationId":')) return undefined;
    const invocationId = this.plainString(25);
    if (invocationId === undefined || invocationId === '') return undefined;
    if (!this.skipKey(',"item":{"instrument":')) return undefined;
    const instrument = this.plainString(this.at);
    if (instrument === undefined || instrument.trim() === '') return undefined;
    if (!this.skipKey(',"bids":')) return undefined;
    const bids = this.levels('bid');
    if (!this.skipKey(',"asks":')) return undefined;
    const asks = this.levels('ask');
    if (!this.skipKey(',"version":')) return undefined;
    const version = this.version();
    if (!this.skipKey(',"askTotalAmount":')) return undefined;
    this.skipScalar();
    if (!this.skipKey(',"bidTotalAmount":')) return undefined;
    this.skipScalar();
    if (!this.skipKey(',"snapshot":')) return undefined;
    const snapshot = this.boolean();
    if (!this.skipKey('}}') || this.at !== this.text.length) return undefined;
    const item = this.decodedItem(instrument, version, snapshot, bids, asks);
    return { type: MessageType.StreamItem, invocationId, item };
  }

  /** Moves past `expected` when the text goes on with it as it stands. */
  private skipKey(expected: string): boolean {
    if (!this.text.startsWith(expected, this.at)) return false;
    this.at += expected.length;
    return true;
  }

  /** The quoted text at `at`, or undefined where it has an escape or is not closed; moves past it. */
  private plainString(at: number): string | undefined {
    this.at = at;
    if (this.text.charCodeAt(at) !== QUOTE) return undefined;
    this.quotedBounds();
    return this.text.slice(this.textStart, this.textEnd);
  }

  /** The message in any spelling of the plain form. */
  private anyForm(): StreamItemMessage {
    this.at = 0;
    this.expect(OPEN_BRACE);
    let type = false;
    let invocationId: string | undefined;
    let item: DecodedBookItem | undefined;
    for (;;) {
      this.key();
      if (this.isKey('type') && !type) {
        this.skipWhitespace();
        // `type` 2 written as the single digit, as the protocol writes it; other types go the generic way.
        if (this.text.charCodeAt(this.at) !== 0x32 || isDigit(this.text.charCodeAt(this.at + 1)))
          throw NOT_PLAIN;
        this.at++;
        type = true;
      } else if (this.isKey('invocationId') && invocationId === undefined) {
        invocationId = this.quoted();
        if (invocationId === '') throw NOT_PLAIN;
      } else if (this.isKey('item') && item === undefined) {
        item = this.item();
      } else throw NOT_PLAIN;
      if (this.closes(CLOSE_BRACE)) break;
    }
    this.skipWhitespace();
    if (!type || invocationId === undefined || item === undefined || this.at !== this.text.length)
      throw NOT_PLAIN;
    return { type: MessageType.StreamItem, invocationId, item };
  }

  private item(): DecodedBookItem {
    this.expect(OPEN_BRACE);
    let instrument: string | undefined;
    let version: number | undefined;
    let snapshot: boolean | undefined;
    let bids: LevelUpdate[] | undefined;
    let asks: LevelUpdate[] | undefined;
    for (;;) {
      this.key();
      switch (this.itemKey()) {
        case ItemKey.Bids:
          if (bids !== undefined) throw NOT_PLAIN;
          bids = this.levels('bid');
          break;
        case ItemKey.Asks:
          if (asks !== undefined) throw NOT_PLAIN;
          asks = this.levels('ask');
          break;
        case ItemKey.Instrument:
          if (instrument !== undefined) throw NOT_PLAIN;
          instrument = this.quoted();
          if (instrument.trim() === '') throw NOT_PLAIN;
          break;
        case ItemKey.Version:
          if (version !== undefined) throw NOT_PLAIN;
          version = this.version();
          break;
        case ItemKey.Snapshot:
          if (snapshot !== undefined) throw NOT_PLAIN;
          snapshot = this.boolean();
          break;
        default:
          this.skipScalar();
      }
      if (this.closes(CLOSE_BRACE)) break;
    }
    if (instrument === undefined || version === undefined || snapshot === undefined) throw NOT_PLAIN;
    if (bids === undefined || asks === undefined) throw NOT_PLAIN;
    return this.decodedItem(instrument, version, snapshot, bids, asks);
  }

  private decodedItem(
    instrument: string,
    version: number,
    snapshot: boolean,
    bids: LevelUpdate[],
    asks: LevelUpdate[],
  ): DecodedBookItem {
    const updates = asks.length === 0 ? bids : bids.length === 0 ? asks : bids.concat(asks);
    return {
      decoded: DECODED,
      instrument: instrument.toLowerCase(),
      version,
      snapshot,
      updates,
      record: this.text,
    };
  }

  /** Which field of the item the last key names, told apart by length before any comparison. */
  private itemKey(): ItemKey {
    switch (this.textEnd - this.textStart) {
      case 4:
        return this.isKey('bids') ? ItemKey.Bids : this.isKey('asks') ? ItemKey.Asks : ItemKey.Other;
      case 7:
        return this.isKey('version') ? ItemKey.Version : ItemKey.Other;
      case 8:
        return this.isKey('snapshot') ? ItemKey.Snapshot : ItemKey.Other;
      case 10:
        return this.isKey('instrument') ? ItemKey.Instrument : ItemKey.Other;
      default:
        return ItemKey.Other;
    }
  }

  private levels(side: BookSide): LevelUpdate[] {
    this.expect(OPEN_BRACKET);
    const updates: LevelUpdate[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.at) === CLOSE_BRACKET) {
      this.at++;
      return updates;
    }
    do updates.push(this.level(side));
    while (!this.closes(CLOSE_BRACKET));
    return updates;
  }

  private level(side: BookSide): LevelUpdate {
    const text = this.text;
    const start = this.at;
    // The hub's own form, `{"amount":<number>,"price":<number>}`, matched as it stands; any other
    // spelling of a level (whitespace, order, strings, extra fields) takes the loop below.
    if (text.startsWith('{"amount":', start)) {
      const amountStart = start + 10;
      const amountEnd = this.plainNumber(amountStart);
      if (amountEnd >= 0 && text.startsWith(',"price":', this.at)) {
        const priceStart = this.at + 9;
        const priceEnd = this.plainNumber(priceStart);
        if (priceEnd >= 0 && text.charCodeAt(this.at) === CLOSE_BRACE) {
          this.at++;
          return {
            side,
            price: text.slice(priceStart, priceEnd),
            amount: text.slice(amountStart, amountEnd),
          };
        }
      }
      this.at = start;
    }
    this.expect(OPEN_BRACE);
    let price: string | undefined;
    let amount: string | undefined;
    for (;;) {
      this.key();
      if (this.isKey('price')) {
        if (price !== undefined) throw NOT_PLAIN;
        price = this.decimal();
      } else if (this.isKey('amount')) {
        if (amount !== undefined) throw NOT_PLAIN;
        amount = this.decimal();
      } else this.skipScalar();
      if (this.closes(CLOSE_BRACE)) break;
    }
    if (price === undefined || amount === undefined) throw NOT_PLAIN;
    return { side, price, amount };
  }

  /** A price or amount as canonical decimal text: see plainNumber, else as `decimalText` reads it. */
  private decimal(): string {
    this.skipWhitespace();
    const start = this.at;
    const code = this.text.charCodeAt(start);
    if (code === QUOTE) {
      const value = decimalText(this.quoted());
      if (value === undefined) throw NOT_PLAIN;
      return value;
    }
    const end = this.plainNumber(start);
    if (end >= 0) return this.text.slice(start, end);
    if (code !== MINUS && !isDigit(code)) throw NOT_PLAIN;
    return this.generalNumber();
  }

  /**
   * A non-negative JSON number in plain notation at `start` is canonical once the trailing zeros of
   * its fraction are cut (JSON allows no leading zeros): this returns where its canonical text ends
   * and moves past the number. -1, without moving, for anything else (sign, exponent, not a number).
   * The same scan as `plainCanonicalDecimal`, kept apart on purpose: that one reads values the
   * generic parser sliced out, this one reads within a whole frame, and one function shared by both
   * read a deep snapshot 10 to 20 % slower on both paths (three alternating runs of snapshot-parse.ts).
   */
  private plainNumber(start: number): number {
    const text = this.text;
    let at = start;
    let code = text.charCodeAt(at);
    if (code === ZERO) code = text.charCodeAt(++at);
    else if (code > ZERO && code <= NINE) {
      do code = text.charCodeAt(++at);
      while (isDigit(code));
    } else return -1;
    let end = at;
    if (code === DOT) {
      code = text.charCodeAt(++at);
      if (!isDigit(code)) return -1;
      do {
        if (code !== ZERO) end = at + 1;
        code = text.charCodeAt(++at);
      } while (isDigit(code));
    }
    if (code === LOWER_E || code === UPPER_E) return -1;
    this.at = at;
    return end;
  }

  /** A number with a sign or an exponent, as `decimalText` reads its text. */
  private generalNumber(): string {
    const start = this.at;
    this.number();
    const value = decimalText(this.text.slice(start, this.at));
    if (value === undefined) throw NOT_PLAIN;
    return value;
  }

  /** A non-negative JSON integer that is safe as a number. */
  private version(): number {
    this.skipWhitespace();
    const text = this.text;
    const start = this.at;
    this.number();
    const end = this.at;
    // Up to 15 digits the sum is exact; longer ones are left to Number and the safe-integer check.
    let version = 0;
    for (let at = start; at < end; at++) {
      const code = text.charCodeAt(at);
      if (!isDigit(code)) throw NOT_PLAIN;
      version = version * 10 + (code - ZERO);
    }
    if (end - start > 15) version = Number(text.slice(start, end));
    if (!Number.isSafeInteger(version)) throw NOT_PLAIN;
    return version;
  }

  private boolean(): boolean {
    this.skipWhitespace();
    let value: boolean;
    if (this.text.startsWith('true', this.at)) {
      value = true;
      this.at += 4;
    } else if (this.text.startsWith('false', this.at)) {
      value = false;
      this.at += 5;
    } else throw NOT_PLAIN;
    return value;
  }

  /** Any number, string, boolean or null; an array or object leaves the plain form. */
  private skipScalar(): void {
    this.skipWhitespace();
    const code = this.text.charCodeAt(this.at);
    if (code === QUOTE) this.quoted();
    else if (code === MINUS || isDigit(code)) this.number();
    else if (code === LOWER_T && this.text.startsWith('true', this.at)) this.at += 4;
    else if (code === LOWER_F && this.text.startsWith('false', this.at)) this.at += 5;
    else if (code === LOWER_N && this.text.startsWith('null', this.at)) this.at += 4;
    else throw NOT_PLAIN;
  }

  /** Moves past a JSON number. */
  private number(): void {
    const end = jsonNumberEnd(this.text, this.at);
    if (end < 0) throw NOT_PLAIN;
    this.at = end;
  }

  /** A quoted key followed by its colon; `isKey` then tells which it was. */
  private key(): void {
    this.skipWhitespace();
    this.quotedBounds();
    this.skipWhitespace();
    if (this.text.charCodeAt(this.at) !== COLON) throw NOT_PLAIN;
    this.at++;
  }

  private isKey(name: string): boolean {
    return this.textEnd - this.textStart === name.length && this.text.startsWith(name, this.textStart);
  }

  /** A string without escapes (those are left to the generic reader). */
  private quoted(): string {
    this.skipWhitespace();
    this.quotedBounds();
    return this.text.slice(this.textStart, this.textEnd);
  }

  private quotedBounds(): void {
    const text = this.text;
    if (text.charCodeAt(this.at) !== QUOTE) throw NOT_PLAIN;
    const start = this.at + 1;
    let at = start;
    let code = text.charCodeAt(at);
    while (code !== QUOTE) {
      // An escape, a control character, or the end of the text (NaN).
      if (code === BACKSLASH || !(code >= 0x20)) throw NOT_PLAIN;
      code = text.charCodeAt(++at);
    }
    this.textStart = start;
    this.textEnd = at;
    this.at = at + 1;
  }

  /** Reads `,` (false: more follows) or `close` (true); anything else leaves the plain form. */
  private closes(close: number): boolean {
    this.skipWhitespace();
    const code = this.text.charCodeAt(this.at++);
    if (code === close) return true;
    if (code !== COMMA) throw NOT_PLAIN;
    return false;
  }

  private expect(code: number): void {
    this.skipWhitespace();
    if (this.text.charCodeAt(this.at) !== code) throw NOT_PLAIN;
    this.at++;
  }

  private skipWhitespace(): void {
    const text = this.text;
    let code = text.charCodeAt(this.at);
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09)
      code = text.charCodeAt(++this.at);
  }
}

/**
 * One reader for every record (reading never calls out, so it cannot be reentered). Made anew per
 * record, no instance might be alive at a full collection between two frames, and V8 would then drop
 * the shape of its instances and the optimised code compiled for it (see DecodedBookItem).
 */
const reader = new BookItemReader();
