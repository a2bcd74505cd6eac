import { MessageType, StreamItemMessage } from '@microsoft/signalr';
import { BookSide, LevelUpdate } from '../../market/book-update';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COMMA,
  DOT,
  LOWER_E,
  NINE,
  OPEN_BRACKET,
  QUOTE,
  UPPER_E,
  ZERO,
  isDigit,
} from '../json-char-codes';
import { decodedBookItem } from './book-item-codec';

/**
 * The message read in one pass, its item a DecodedBookItem, when it is a `Book` stream item laid out
 * exactly as the hub writes it; undefined for anything else, valid or not, which the generic reader
 * (parseExactJson and readBookItem) then reads, and rejects in its own words where it must.
 */
export function readHubFormBookItem(record: string): StreamItemMessage | undefined {
  try {
    return reader.read(record);
  } finally {
    reader.release();
  }
}

const HEAD = '{"type":2,"invocationId":';

/**
 * The hub's form: `{"type":2,"invocationId":"…","item":{"instrument":"…","bids":[…],"asks":[…],
 * "version":…,"askTotalAmount":…,"bidTotalAmount":…,"snapshot":…}}`, levels `{"amount":…,"price":…}`,
 * numbers non-negative in plain notation, strings without escapes, no whitespace.
 */
class HubFormReader {
  private text = '';
  private at = 0;

  read(record: string): StreamItemMessage | undefined {
    if (!record.startsWith(HEAD)) return undefined;
    this.text = record;
    this.at = HEAD.length;
    const invocationId = this.plainString();
    if (invocationId === undefined || invocationId === '') return undefined;
    if (!this.skip(',"item":{"instrument":')) return undefined;
    const instrument = this.plainString();
    if (instrument === undefined || instrument.trim() === '') return undefined;
    if (!this.skip(',"bids":')) return undefined;
    const bids = this.levels('bid');
    if (bids === undefined || !this.skip(',"asks":')) return undefined;
    const asks = this.levels('ask');
    if (asks === undefined || !this.skip(',"version":')) return undefined;
    const version = this.version();
    if (version < 0 || !this.skip(',"askTotalAmount":') || this.plainNumber() < 0) return undefined;
    if (!this.skip(',"bidTotalAmount":') || this.plainNumber() < 0) return undefined;
    if (!this.skip(',"snapshot":')) return undefined;
    const snapshot = this.skip('true') ? true : this.skip('false') ? false : undefined;
    if (snapshot === undefined || !this.skip('}}') || this.at !== record.length) return undefined;
    const updates = asks.length === 0 ? bids : bids.length === 0 ? asks : bids.concat(asks);
    const item = decodedBookItem(instrument, version, snapshot, updates);
    return { type: MessageType.StreamItem, invocationId, item };
  }

  /** Lets go of the record. */
  release(): void {
    this.text = '';
  }

  /** Moves past `expected` when the text goes on with it as it stands. */
  private skip(expected: string): boolean {
    if (!this.text.startsWith(expected, this.at)) return false;
    this.at += expected.length;
    return true;
  }

  /** The quoted text at `at` when it holds no escape and no control character; moves past it. */
  private plainString(): string | undefined {
    const text = this.text;
    if (text.charCodeAt(this.at) !== QUOTE) return undefined;
    const start = this.at + 1;
    let at = start;
    let code = text.charCodeAt(at);
    while (code !== QUOTE) {
      // An escape, a control character, or the end of the text (NaN).
      if (code === BACKSLASH || !(code >= 0x20)) return undefined;
      code = text.charCodeAt(++at);
    }
    this.at = at + 1;
    return text.slice(start, at);
  }

  /** `[…]` of levels each `{"amount":…,"price":…}`, prices and amounts as canonical decimal text. */
  private levels(side: BookSide): LevelUpdate[] | undefined {
    const text = this.text;
    if (text.charCodeAt(this.at) !== OPEN_BRACKET) return undefined;
    const updates: LevelUpdate[] = [];
    if (text.charCodeAt(++this.at) === CLOSE_BRACKET) {
      this.at++;
      return updates;
    }
    for (;;) {
      if (!this.skip('{"amount":')) return undefined;
      const amountStart = this.at;
      const amountEnd = this.plainNumber();
      if (amountEnd < 0 || !this.skip(',"price":')) return undefined;
      const priceStart = this.at;
      const priceEnd = this.plainNumber();
      if (priceEnd < 0 || text.charCodeAt(this.at) !== CLOSE_BRACE) return undefined;
      updates.push({
        side,
        price: text.slice(priceStart, priceEnd),
        amount: text.slice(amountStart, amountEnd),
      });
      const next = text.charCodeAt(++this.at);
      this.at++;
      if (next === CLOSE_BRACKET) return updates;
      if (next !== COMMA) return undefined;
    }
  }

  /**
   * A non-negative JSON number in plain notation at `at` is canonical once the trailing zeros of its
   * fraction are cut (JSON allows no leading zeros): this returns where its canonical text ends and
   * moves past the number; -1, without moving, for anything else (sign, exponent, not a number).
   * The same scan as `plainCanonicalDecimal`, kept apart on purpose: one function shared by this
   * reader and the generic one made both slower.
   */
  private plainNumber(): number {
    const text = this.text;
    let at = this.at;
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

  /** A JSON integer at `at` that is safe as a number, moving past it; -1, without moving, for anything else. */
  private version(): number {
    const text = this.text;
    const start = this.at;
    let at = start;
    let version = 0;
    let code = text.charCodeAt(at);
    // A leading zero is the whole integer; a digit after it then fails the key that must follow.
    if (code === ZERO) at++;
    else
      while (isDigit(code)) {
        version = version * 10 + (code - ZERO);
        code = text.charCodeAt(++at);
      }
    if (at === start) return -1;
    // Up to 15 digits the sum is exact; longer ones are left to Number and the safe-integer check.
    if (at - start > 15) version = Number(text.slice(start, at));
    if (!Number.isSafeInteger(version)) return -1;
    this.at = at;
    return version;
  }
}

/**
 * One reader for every record (reading never calls out, so it cannot be reentered). Made anew per
 * record, no instance might be alive at a full collection, and V8 would then drop the shape of its
 * instances and the optimised code compiled for it.
 */
const reader = new HubFormReader();
