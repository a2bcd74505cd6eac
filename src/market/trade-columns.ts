import { TakerSide, Trade } from './trade';

/** Marks a decimal or id kept as text: it does not fit a column's number exactly. */
const AS_TEXT = 255;
const MAX_DIGITS = 15;
const BUY = 0;
const SELL = 1;

/** The texts of a trade that did not fit its columns. */
interface TextFields {
  id?: string;
  price?: string;
  amount?: string;
}

/**
 * Trades of one instrument in columns of typed arrays, about 35 bytes a trade instead of an object
 * with four strings of its own (about 300): the id and the time as numbers, each decimal as its
 * digits and its scale (`27000.5` is 270005 and 1), the side as a byte. A field whose text a number
 * cannot give back exactly (more than 15 digits, leading zeros, an exponent) is kept as text beside
 * the columns, so every trade comes back with exactly the texts it came with.
 *
 * Positions run from 0 (the oldest held) to `length - 1`; `dropOldest` shifts them.
 */
export class TradeColumns {
  private ids: Float64Array = new Float64Array(0);
  private times: Float64Array = new Float64Array(0);
  private sides: Uint8Array = new Uint8Array(0);
  private priceDigits: Float64Array = new Float64Array(0);
  private priceScales: Uint8Array = new Uint8Array(0);
  private amountDigits: Float64Array = new Float64Array(0);
  private amountScales: Uint8Array = new Uint8Array(0);
  /** By position, the texts that did not fit; undefined until a trade needs it. */
  private texts: (TextFields | undefined)[] | undefined;
  /** The oldest held trade's index in the columns, and one past the newest's. */
  private start = 0;
  private end = 0;

  constructor(private instrument = '') {}

  get length(): number {
    return this.end - this.start;
  }

  /** Appends a trade; its instrument is taken to be the one every held trade shares. */
  push(trade: Trade): void {
    if (this.end === this.ids.length) this.resize(Math.max(16, this.length * 2));
    const at = this.end++;
    this.instrument = trade.instrument;
    this.times[at] = trade.time;
    this.sides[at] = trade.side === 'buy' ? BUY : SELL;
    let texts: TextFields | undefined;
    const id = integerOf(trade.id);
    this.ids[at] = id ?? NaN;
    if (id === undefined) texts = { id: trade.id };
    if (!this.putDecimal(this.priceDigits, this.priceScales, at, trade.price))
      texts = { ...texts, price: trade.price };
    if (!this.putDecimal(this.amountDigits, this.amountScales, at, trade.amount))
      texts = { ...texts, amount: trade.amount };
    if (texts !== undefined || this.texts !== undefined) {
      this.texts ??= [];
      this.texts[at] = texts;
    }
  }

  timeAt(position: number): number {
    return this.times[this.start + position];
  }

  /** The id as a number, or NaN for an id kept as text. */
  idNumberAt(position: number): number {
    return this.ids[this.start + position];
  }

  idAt(position: number): string {
    const id = this.ids[this.start + position];
    return Number.isNaN(id) ? (this.texts?.[this.start + position]?.id as string) : String(id);
  }

  priceAt(position: number): string {
    const scale = this.priceScales[this.start + position];
    return scale === AS_TEXT
      ? (this.texts?.[this.start + position]?.price as string)
      : decimalText(this.priceDigits[this.start + position], scale);
  }

  amountAt(position: number): string {
    const scale = this.amountScales[this.start + position];
    return scale === AS_TEXT
      ? (this.texts?.[this.start + position]?.amount as string)
      : decimalText(this.amountDigits[this.start + position], scale);
  }

  sideAt(position: number): TakerSide {
    return this.sides[this.start + position] === BUY ? 'buy' : 'sell';
  }

  /** The trade at `position` as an object of its own. */
  at(position: number): Trade {
    return {
      id: this.idAt(position),
      instrument: this.instrument,
      price: this.priceAt(position),
      amount: this.amountAt(position),
      side: this.sideAt(position),
      time: this.times[this.start + position],
    };
  }

  /** The trades from `from` on, as objects. */
  toArray(from = 0): Trade[] {
    const trades = new Array<Trade>(Math.max(0, this.length - from));
    for (let position = from; position < this.length; position++) trades[position - from] = this.at(position);
    return trades;
  }

  /** Drops the `count` oldest trades; the others move to positions `count` lower. */
  dropOldest(count: number): void {
    this.start = Math.min(this.end, this.start + Math.max(0, count));
    if (this.start === this.end) this.clear();
    else if (this.start > 1024 && this.start * 2 > this.end) this.resize(Math.max(16, this.length * 2));
  }

  clear(): void {
    this.start = 0;
    this.end = 0;
    this.texts = undefined;
    this.resize(0);
  }

  private putDecimal(digits: Float64Array, scales: Uint8Array, at: number, text: string): boolean {
    const point = text.indexOf('.');
    const scale = point < 0 ? 0 : text.length - point - 1;
    const digitText = point < 0 ? text : text.slice(0, point) + text.slice(point + 1);
    const value = digitText.length <= MAX_DIGITS && /^\d+$/.test(digitText) ? Number(digitText) : NaN;
    if (Number.isNaN(value) || scale >= AS_TEXT || decimalText(value, scale) !== text) {
      scales[at] = AS_TEXT;
      return false;
    }
    digits[at] = value;
    scales[at] = scale;
    return true;
  }

  /** Moves the held trades to the front of columns of `capacity`. */
  private resize(capacity: number): void {
    const float = (column: Float64Array): Float64Array => {
      const next = new Float64Array(capacity);
      next.set(column.subarray(this.start, this.end));
      return next;
    };
    const byte = (column: Uint8Array): Uint8Array => {
      const next = new Uint8Array(capacity);
      next.set(column.subarray(this.start, this.end));
      return next;
    };
    this.ids = float(this.ids);
    this.times = float(this.times);
    this.sides = byte(this.sides);
    this.priceDigits = float(this.priceDigits);
    this.priceScales = byte(this.priceScales);
    this.amountDigits = float(this.amountDigits);
    this.amountScales = byte(this.amountScales);
    if (this.texts) this.texts = this.texts.slice(this.start, this.end);
    this.end -= this.start;
    this.start = 0;
  }
}

/** The id as a number when the number gives back exactly the same text. */
function integerOf(id: string): number | undefined {
  if (id.length > MAX_DIGITS || !/^\d+$/.test(id)) return undefined;
  const value = Number(id);
  return String(value) === id ? value : undefined;
}

/** `digits` with `scale` of them after the point: 270005 and 1 give `27000.5`, 25 and 3 `0.025`. */
function decimalText(digits: number, scale: number): string {
  const text = String(digits);
  if (scale === 0) return text;
  const padded = text.length > scale ? text : '0'.repeat(scale - text.length + 1) + text;
  return `${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
}
