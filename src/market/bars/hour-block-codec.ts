import { Candle } from '../candle-stats';
import { canonicalDecimal } from '../decimal';
import { formatUnits, pow10 } from '../fixed-point';

/**
 * The compact text of one hour block of closed 1-minute bars, as the bar archive stores it.
 *
 * A header line `b1 {t|e} {hourStart} {priceScale} {volumeScale} {quoteScale|-} {bars} {checksum}`,
 * then one line per bar, `{gap},{open},{close},{high},{low},{volume}[,{quoteVolume}]`: every value an
 * integer count of units at its scale, written in base 36, zero as nothing. `gap` is the number of
 * minutes without a bar since the previous bar (or since the hour's start); `open` is the change from
 * the previous bar's close (the first bar's open itself); `close` the change from the open; `high` how
 * far it lies above the higher of open and close, `low` how far below the lower. A quote volume the
 * block does not carry for one bar is `~`. The checksum (FNV-1a, base 36) covers every bar line, so
 * a damaged text is refused instead of read as other bars. Decoded values are canonical decimal text.
 */
export const HOUR_BLOCK_FORMAT = 'b1';

/** Where an hour's bars came from (the store's `BarSource`). */
export type HourBarsSource = 'trades' | 'exchange';

/** The closed 1-minute bars of one UTC hour, oldest first (the store's `HourBlock`). */
export interface HourBars {
  readonly hourStart: number;
  readonly source: HourBarsSource;
  readonly bars: readonly Candle[];
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const MINUTES_PER_HOUR = 60;
const MAX_SCALE = 60;
const NO_QUOTE = '~';
const HEADER_FIELDS = 8;

const SOURCE_CODES: Record<HourBarsSource, string> = { trades: 't', exchange: 'e' };
const SOURCES: Record<string, HourBarsSource> = { t: 'trades', e: 'exchange' };

/** A text that is not a well-formed hour block of a known format. */
export class HourBlockFormatError extends Error {
  constructor(reason: string) {
    super(`unreadable hour block: ${reason}`);
    this.name = 'HourBlockFormatError';
  }
}

interface BarUnits {
  readonly minute: number;
  readonly open: bigint;
  readonly high: bigint;
  readonly low: bigint;
  readonly close: bigint;
  readonly volume: bigint;
  readonly quoteVolume?: bigint;
}

export function encodeHourBlock(block: HourBars): string {
  const { hourStart, bars } = block;
  if (!Number.isSafeInteger(hourStart) || hourStart % HOUR_MS !== 0) {
    throw new Error(`cannot encode an hour block starting at ${hourStart}: not the start of a UTC hour`);
  }
  const canonical = bars.map((bar) => ({
    open: canonicalDecimal(bar.open),
    high: canonicalDecimal(bar.high),
    low: canonicalDecimal(bar.low),
    close: canonicalDecimal(bar.close),
    volume: canonicalDecimal(bar.volume),
    quoteVolume: bar.quoteVolume === undefined ? undefined : canonicalDecimal(bar.quoteVolume),
  }));
  const priceScale = maxDecimals(canonical.flatMap((bar) => [bar.open, bar.high, bar.low, bar.close]));
  const volumeScale = maxDecimals(canonical.map((bar) => bar.volume));
  const quotes = canonical.flatMap((bar) => (bar.quoteVolume === undefined ? [] : [bar.quoteVolume]));
  const quoteScale = quotes.length > 0 ? maxDecimals(quotes) : undefined;

  const lines: string[] = [];
  let previousMinute = -1;
  let previousClose = 0n;
  bars.forEach((bar, index) => {
    const offset = bar.start - hourStart;
    const minute = offset / MINUTE_MS;
    if (!Number.isInteger(minute) || minute <= previousMinute || minute >= MINUTES_PER_HOUR) {
      throw new Error(
        `cannot encode bar ${index} of the hour block at ${hourStart}: start ${bar.start} is not a later minute of the hour`,
      );
    }
    if (bar.end !== bar.start + MINUTE_MS) {
      throw new Error(`cannot encode bar ${index} of the hour block at ${hourStart}: not a 1-minute bar`);
    }
    const values = canonical[index];
    const open = decimalUnits(values.open, priceScale);
    const high = decimalUnits(values.high, priceScale);
    const low = decimalUnits(values.low, priceScale);
    const close = decimalUnits(values.close, priceScale);
    const fields = [
      base36(BigInt(minute - previousMinute - 1)),
      base36(open - previousClose),
      base36(close - open),
      base36(high - (open > close ? open : close)),
      base36((open < close ? open : close) - low),
      base36(decimalUnits(values.volume, volumeScale)),
    ];
    if (quoteScale !== undefined) {
      fields.push(
        values.quoteVolume === undefined ? NO_QUOTE : base36(decimalUnits(values.quoteVolume, quoteScale)),
      );
    }
    lines.push(fields.join(','));
    previousMinute = minute;
    previousClose = close;
  });
  const body = lines.join('\n');
  const header = [
    HOUR_BLOCK_FORMAT,
    SOURCE_CODES[block.source],
    String(hourStart),
    String(priceScale),
    String(volumeScale),
    quoteScale === undefined ? '-' : String(quoteScale),
    String(bars.length),
    checksum(body),
  ].join(' ');
  return bars.length === 0 ? header : `${header}\n${body}`;
}

export function decodeHourBlock(text: string): HourBars {
  const headerEnd = text.indexOf('\n');
  const header = (headerEnd < 0 ? text : text.slice(0, headerEnd)).split(' ');
  if (header[0] !== HOUR_BLOCK_FORMAT) {
    throw new HourBlockFormatError(`unknown format ${JSON.stringify(header[0].slice(0, 16))}`);
  }
  if (header.length !== HEADER_FIELDS) throw new HourBlockFormatError(`header of ${header.length} fields`);
  const [, sourceCode, hourText, priceText, volumeText, quoteText, countText, sum] = header;
  const source = SOURCES[sourceCode];
  if (source === undefined) throw new HourBlockFormatError(`unknown source ${JSON.stringify(sourceCode)}`);
  const hourStart = headerInteger(hourText, 'hour start');
  if (hourStart % HOUR_MS !== 0) throw new HourBlockFormatError(`hour start ${hourStart} is not a UTC hour`);
  const priceScale = headerScale(priceText, 'price scale');
  const volumeScale = headerScale(volumeText, 'volume scale');
  const quoteScale = quoteText === '-' ? undefined : headerScale(quoteText, 'quote scale');
  const count = headerInteger(countText, 'bar count');
  const body = headerEnd < 0 ? '' : text.slice(headerEnd + 1);
  if (checksum(body) !== sum) throw new HourBlockFormatError('checksum mismatch');
  const lines = count === 0 && body === '' ? [] : body.split('\n');
  if (lines.length !== count)
    throw new HourBlockFormatError(`${lines.length} bar lines, header says ${count}`);

  const scales: Scales = { price: priceScale, volume: volumeScale, quote: quoteScale };
  const rows = lines.map((line, index) => {
    const fields = line.split(',');
    const expected = quoteScale === undefined ? 6 : 7;
    if (fields.length !== expected) {
      throw new HourBlockFormatError(`bar ${index} has ${fields.length} fields, not ${expected}`);
    }
    return fields;
  });
  // Most blocks' unit counts are far below 2^53: plain numbers decode them some times faster.
  const bars = barsInNumbers(rows, hourStart, scales) ?? barsInBigints(rows, hourStart, scales);
  return { hourStart, source, bars };
}

interface Scales {
  readonly price: number;
  readonly volume: number;
  readonly quote?: number;
}

/** The bars of `rows`, or undefined when a value is past what a double holds exactly. */
function barsInNumbers(rows: readonly string[][], hourStart: number, scales: Scales): Candle[] | undefined {
  const bars: Candle[] = [];
  let previousMinute = -1;
  let previousClose = 0;
  for (let index = 0; index < rows.length; index++) {
    const fields = rows[index];
    const gap = numberField(fields[0], index, false);
    const openChange = numberField(fields[1], index, true);
    const closeChange = numberField(fields[2], index, true);
    const highChange = numberField(fields[3], index, true);
    const lowChange = numberField(fields[4], index, true);
    const volume = numberField(fields[5], index, false);
    const quoted = scales.quote !== undefined && fields[6] !== NO_QUOTE;
    const quoteVolume = quoted ? numberField(fields[6], index, false) : 0;
    if (
      gap === undefined ||
      openChange === undefined ||
      closeChange === undefined ||
      highChange === undefined ||
      lowChange === undefined ||
      volume === undefined ||
      quoteVolume === undefined
    ) {
      return undefined;
    }
    const minute = nextMinute(previousMinute, gap, index);
    const open = previousClose + openChange;
    const close = open + closeChange;
    const high = Math.max(open, close) + highChange;
    const low = Math.min(open, close) - lowChange;
    // A sum of two exact integers that comes out exact and safe is the exact sum.
    if (!(Number.isSafeInteger(open) && Number.isSafeInteger(close) && Number.isSafeInteger(high)))
      return undefined;
    if (!Number.isSafeInteger(low)) return undefined;
    if (open < 0 || close < 0 || high < 0 || low < 0)
      throw new HourBlockFormatError(`bar ${index} has a negative price`);
    const start = hourStart + minute * MINUTE_MS;
    const bar: Candle = {
      start,
      end: start + MINUTE_MS,
      open: numberText(open, scales.price),
      high: numberText(high, scales.price),
      low: numberText(low, scales.price),
      close: numberText(close, scales.price),
      volume: numberText(volume, scales.volume),
    };
    bars.push(quoted ? { ...bar, quoteVolume: numberText(quoteVolume, scales.quote ?? 0) } : bar);
    previousMinute = minute;
    previousClose = close;
  }
  return bars;
}

function barsInBigints(rows: readonly string[][], hourStart: number, scales: Scales): Candle[] {
  const bars: Candle[] = [];
  let previousMinute = -1;
  let previousClose = 0n;
  rows.forEach((fields, index) => {
    const minute = nextMinute(previousMinute, Number(unsignedField(fields[0], index)), index);
    const open = previousClose + signedField(fields[1], index);
    const close = open + signedField(fields[2], index);
    const high = (open > close ? open : close) + signedField(fields[3], index);
    const low = (open < close ? open : close) - signedField(fields[4], index);
    if (open < 0n || close < 0n || high < 0n || low < 0n) {
      throw new HourBlockFormatError(`bar ${index} has a negative price`);
    }
    const units: BarUnits = {
      minute,
      open,
      high,
      low,
      close,
      volume: unsignedField(fields[5], index),
      quoteVolume:
        scales.quote === undefined || fields[6] === NO_QUOTE ? undefined : unsignedField(fields[6], index),
    };
    bars.push(barOf(units, hourStart, scales.price, scales.volume, scales.quote));
    previousMinute = minute;
    previousClose = close;
  });
  return bars;
}

function nextMinute(previousMinute: number, gap: number, index: number): number {
  const minute = previousMinute + 1 + gap;
  if (minute >= MINUTES_PER_HOUR) throw new HourBlockFormatError(`bar ${index} lies past the hour`);
  return minute;
}

function barOf(
  units: BarUnits,
  hourStart: number,
  priceScale: number,
  volumeScale: number,
  quoteScale: number | undefined,
): Candle {
  const start = hourStart + units.minute * MINUTE_MS;
  const bar = {
    start,
    end: start + MINUTE_MS,
    open: formatUnits(units.open, priceScale),
    high: formatUnits(units.high, priceScale),
    low: formatUnits(units.low, priceScale),
    close: formatUnits(units.close, priceScale),
    volume: formatUnits(units.volume, volumeScale),
  };
  if (units.quoteVolume === undefined || quoteScale === undefined) return bar;
  return { ...bar, quoteVolume: formatUnits(units.quoteVolume, quoteScale) };
}

function maxDecimals(values: readonly string[]): number {
  let scale = 0;
  for (const value of values) {
    const point = value.indexOf('.');
    if (point >= 0) scale = Math.max(scale, value.length - point - 1);
  }
  return scale;
}

/** Canonical decimal text with at most `scale` decimals as a count of 10^-scale units. */
function decimalUnits(canonical: string, scale: number): bigint {
  const point = canonical.indexOf('.');
  if (point < 0) return BigInt(canonical) * pow10(scale);
  const fraction = canonical.slice(point + 1);
  return BigInt(canonical.slice(0, point) + fraction) * pow10(scale - fraction.length);
}

function base36(value: bigint): string {
  return value === 0n ? '' : value.toString(36);
}

const DIGITS_36 = /^[0-9a-z]*$/;
/** Base-36 digits whose value a double holds exactly (36^10 < 2^53). */
const SAFE_DIGITS = 10;

function unsignedField(field: string, index: number): bigint {
  if (!DIGITS_36.test(field))
    throw new HourBlockFormatError(`bar ${index} has a malformed value ${JSON.stringify(field)}`);
  if (field.length <= SAFE_DIGITS) return BigInt(field === '' ? 0 : parseInt(field, 36));
  let value = 0n;
  for (let at = 0; at < field.length; at += SAFE_DIGITS) {
    const chunk = field.slice(at, at + SAFE_DIGITS);
    value = value * 36n ** BigInt(chunk.length) + BigInt(parseInt(chunk, 36));
  }
  return value;
}

/**
 * A base-36 field as a number, or undefined when it has more digits than a double holds exactly;
 * `signed` allows a leading minus.
 */
function numberField(field: string, index: number, signed: boolean): number | undefined {
  const negative = signed && field.charCodeAt(0) === 45; /* - */
  if (negative && field.length === 1)
    throw new HourBlockFormatError(`bar ${index} has a malformed value "-"`);
  let at = negative ? 1 : 0;
  if (field.length - at > SAFE_DIGITS) return undefined;
  let value = 0;
  for (; at < field.length; at++) {
    const code = field.charCodeAt(at);
    const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 122 ? code - 87 : -1;
    if (digit < 0)
      throw new HourBlockFormatError(`bar ${index} has a malformed value ${JSON.stringify(field)}`);
    value = value * 36 + digit;
  }
  return negative ? -value : value;
}

/** Canonical text of a safe, non-negative integer count of 10^-scale units. */
function numberText(units: number, scale: number): string {
  let digits = String(units);
  if (scale === 0) return digits;
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  const point = digits.length - scale;
  let end = digits.length;
  while (end > point && digits.charCodeAt(end - 1) === 48 /* 0 */) end--;
  return end === point ? digits.slice(0, point) : `${digits.slice(0, point)}.${digits.slice(point, end)}`;
}

function signedField(field: string, index: number): bigint {
  if (field.charCodeAt(0) !== 45 /* - */) return unsignedField(field, index);
  if (field.length === 1) throw new HourBlockFormatError(`bar ${index} has a malformed value "-"`);
  return -unsignedField(field.slice(1), index);
}

function headerInteger(text: string, what: string): number {
  const value = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value))
    throw new HourBlockFormatError(`malformed ${what} ${JSON.stringify(text)}`);
  return value;
}

function headerScale(text: string, what: string): number {
  const scale = headerInteger(text, what);
  if (scale > MAX_SCALE) throw new HourBlockFormatError(`${what} ${scale} out of range`);
  return scale;
}

/** FNV-1a over the UTF-16 code units, base 36. */
function checksum(text: string): string {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at++) {
    hash ^= text.charCodeAt(at);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
