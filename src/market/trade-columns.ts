import { unitsText } from './scaled-units';
import { TakerSide, Trade } from './trade';

/** Marks a decimal or id kept as text: it does not fit a column's number exactly. */
const AS_TEXT = 255;
const MAX_DIGITS = 15;
const BUY = 0;
const SELL = 1;
/** Room made when the columns are full: a quarter over what they hold, so a day's spare stays small. */
const GROWTH = 1.25;

/** The texts of a trade that did not fit its columns. */
interface TextFields {
  id?: string;
  price?: string;
  amount?: string;
}

/** Read access to trades held in columns, positions from 0 (the oldest) to `length - 1`. */
export interface TradeRows {
  readonly length: number;
  timeAt(position: number): number;
  idNumberAt(position: number): number;
  idAt(position: number): string;
  priceAt(position: number): string;
  amountAt(position: number): string;
  /** The price as units at `priceScaleAt`, or NaN for a price kept as text. */
  priceUnitsAt(position: number): number;
  priceScaleAt(position: number): number;
  /** The amount as units at `amountScaleAt`, or NaN for an amount kept as text. */
  amountUnitsAt(position: number): number;
  amountScaleAt(position: number): number;
  sideAt(position: number): TakerSide;
  at(position: number): Trade;
  toArray(from?: number): Trade[];
  slice(from?: number, to?: number): TradeRows;
}

/**
 * Trades of one instrument in columns of typed arrays, about 35 bytes a trade instead of an object
 * with four strings of its own (about 300): the id and the time as numbers, each decimal as its
 * digits and its scale (`27000.5` is 270005 and 1), the side as a byte. A field whose text a number
 * cannot give back exactly (more than 15 digits, leading zeros, an exponent) is kept as text beside
 * the columns, so every trade comes back with exactly the texts it came with. Full columns grow by
 * a quarter, so they hold up to about 44 bytes a trade.
 *
 * Positions run from 0 (the oldest held) to `length - 1`; `dropOldest` shifts them.
 */
export class TradeColumns implements TradeRows {
  private ids: Float64Array = new Float64Array(0);
  private times: Float64Array = new Float64Array(0);
  private sides: Uint8Array = new Uint8Array(0);
  private priceDigits: Float64Array = new Float64Array(0);
  private priceScales: Uint8Array = new Uint8Array(0);
  private amountDigits: Float64Array = new Float64Array(0);
  private amountScales: Uint8Array = new Uint8Array(0);
  /** By index in the columns, the texts that did not fit: one trade of them must not cost every trade. */
  private texts: Map<number, TextFields> | undefined;
  /** The oldest held trade's index in the columns, and one past the newest's. */
  private start = 0;
  private end = 0;
  /** The columns are another's too (see `slice`): written only after copying them. */
  private shared = false;

  constructor(private instrument = '') {}

  /** The trades in columns just large enough to hold them. */
  static of(trades: readonly Trade[]): TradeColumns {
    const columns = new TradeColumns();
    columns.resize(trades.length);
    for (const trade of trades) columns.push(trade);
    return columns;
  }

  get length(): number {
    return this.end - this.start;
  }

  /** Appends a trade; its instrument is taken to be the one every held trade shares. */
  push(trade: Trade): void {
    if (this.end === this.ids.length || this.shared) this.resize(spaciousCapacity(this.length + 1));
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
    if (texts !== undefined) (this.texts ??= new Map()).set(at, texts);
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
    return Number.isNaN(id) ? (this.texts?.get(this.start + position)?.id as string) : String(id);
  }

  priceAt(position: number): string {
    const scale = this.priceScales[this.start + position];
    return scale === AS_TEXT
      ? (this.texts?.get(this.start + position)?.price as string)
      : unitsText(this.priceDigits[this.start + position], scale);
  }

  amountAt(position: number): string {
    const scale = this.amountScales[this.start + position];
    return scale === AS_TEXT
      ? (this.texts?.get(this.start + position)?.amount as string)
      : unitsText(this.amountDigits[this.start + position], scale);
  }

  priceUnitsAt(position: number): number {
    return this.priceScales[this.start + position] === AS_TEXT
      ? NaN
      : this.priceDigits[this.start + position];
  }

  priceScaleAt(position: number): number {
    return this.priceScales[this.start + position];
  }

  amountUnitsAt(position: number): number {
    return this.amountScales[this.start + position] === AS_TEXT
      ? NaN
      : this.amountDigits[this.start + position];
  }

  amountScaleAt(position: number): number {
    return this.amountScales[this.start + position];
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

  /**
   * The trades from `from` up to `to`, as they are now, without a copy: the columns never write over
   * a trade they hold (they grow, drop and clear into new arrays), so what the slice shows stays.
   */
  slice(from = 0, to = this.length): TradeRows {
    const slice = new TradeColumns(this.instrument);
    slice.ids = this.ids;
    slice.times = this.times;
    slice.sides = this.sides;
    slice.priceDigits = this.priceDigits;
    slice.priceScales = this.priceScales;
    slice.amountDigits = this.amountDigits;
    slice.amountScales = this.amountScales;
    slice.texts = this.texts;
    slice.start = this.start + Math.max(0, Math.min(from, this.length));
    slice.end = Math.max(slice.start, this.start + Math.max(0, Math.min(to, this.length)));
    slice.shared = true;
    return slice;
  }

  /** Drops the `count` oldest trades; the others move to positions `count` lower. */
  dropOldest(count: number): void {
    this.start = Math.min(this.end, this.start + Math.max(0, count));
    if (this.start === this.end) this.clear();
    else if (this.start > 1024 && this.start * 2 > this.end) this.resize(spaciousCapacity(this.length));
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
    if (Number.isNaN(value) || scale >= AS_TEXT || unitsText(value, scale) !== text) {
      scales[at] = AS_TEXT;
      return false;
    }
    digits[at] = value;
    scales[at] = scale;
    return true;
  }

  /** Moves the held trades to the front of new columns of `capacity`. */
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
    if (this.texts) this.texts = heldTexts(this.texts, this.start, this.end);
    this.end -= this.start;
    this.start = 0;
    this.shared = false;
  }
}

/** The texts of the trades from `start` up to `end`, by their index once moved to the front. */
function heldTexts(
  texts: Map<number, TextFields>,
  start: number,
  end: number,
): Map<number, TextFields> | undefined {
  const held = new Map<number, TextFields>();
  for (const [index, fields] of texts) if (index >= start && index < end) held.set(index - start, fields);
  return held.size > 0 ? held : undefined;
}

function spaciousCapacity(length: number): number {
  return Math.max(16, Math.ceil(length * GROWTH));
}

/** The id as a number when the number gives back exactly the same text. */
function integerOf(id: string): number | undefined {
  if (id.length > MAX_DIGITS || !/^\d+$/.test(id)) return undefined;
  const value = Number(id);
  return String(value) === id ? value : undefined;
}
