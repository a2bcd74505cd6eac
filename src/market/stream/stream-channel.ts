import { CHART_RESOLUTION_NAMES, ChartResolution, parseChartResolution } from '../bars/chart-resolution';
import { normalizeInstrument } from '../instrument-name';
import { quoted, StreamError } from './stream-error';

export type StreamChannel =
  | { readonly kind: 'book'; readonly instrument: string; readonly name: string }
  | { readonly kind: 'trades'; readonly instrument: string; readonly name: string }
  | {
      readonly kind: 'candles';
      readonly instrument: string;
      readonly resolution: ChartResolution;
      readonly name: string;
    }
  | { readonly kind: 'ticker'; readonly name: 'ticker' };

/**
 * | code              | when                                                                   |
 * |-------------------|------------------------------------------------------------------------|
 * | `unknown_channel` | the kind before the first `.` is not `book`, `trades`, `candles` or    |
 * |                   | `ticker`                                                               |
 * | `bad_channel`     | no instrument, an instrument where none is taken, characters an        |
 * |                   | instrument cannot hold, no base and quote, a name too long, or a       |
 * |                   | candles channel without a known resolution                             |
 *
 * Whether the instrument is listed is for the caller to say, with the catalogue at hand.
 */
export type ChannelErrorCode = 'unknown_channel' | 'bad_channel';

export type ParsedChannel =
  | { readonly ok: true; readonly channel: StreamChannel }
  | { readonly ok: false; readonly error: StreamError<ChannelErrorCode> };

export const MAX_CHANNEL_NAME_LENGTH = 128;

/** Asset symbols hold letters, digits, `.` and `-`; `_` or `-` joins base and quote. */
const INSTRUMENT_TEXT = /^[A-Za-z0-9._-]+$/;
const BASE_AND_QUOTE = /^[a-z0-9.]+(?:_[a-z0-9.]+)+$/;

export function bookChannelName(instrument: string): string {
  return `book.${instrument}`;
}

export function tradesChannelName(instrument: string): string {
  return `trades.${instrument}`;
}

export function candlesChannelName(instrument: string, resolution: ChartResolution): string {
  return `candles.${instrument}.${resolution.name}`;
}

/**
 * Reads `book.{instrument}`, `trades.{instrument}`, `candles.{instrument}.{resolution}` or `ticker`. The kind is lower case; the instrument is
 * written as in the listing paths (any letter case, `_` or `-`) and comes back in the catalogue's form
 * (`btc_usdt`), as does the channel's `name`, which every message of the channel carries. The instrument
 * runs from the first `.` to the end (to the last `.` for candles, whose resolution follows it, in its
 * canonical name: `D` is `1D`), since asset symbols may hold a `.` themselves.
 */
export function parseStreamChannel(text: string): ParsedChannel {
  if (text.length > MAX_CHANNEL_NAME_LENGTH)
    return failure('bad_channel', `channel name longer than ${MAX_CHANNEL_NAME_LENGTH} characters`);
  const dot = text.indexOf('.');
  const kind = dot < 0 ? text : text.slice(0, dot);
  if (kind === 'ticker') {
    return dot < 0
      ? { ok: true, channel: { kind: 'ticker', name: 'ticker' } }
      : failure(
          'bad_channel',
          `the ticker channel covers every market and takes no instrument: ${quoted(text)}`,
        );
  }
  if (kind !== 'book' && kind !== 'trades' && kind !== 'candles') {
    return failure(
      'unknown_channel',
      `unknown channel ${quoted(text)}: expected book.{instrument}, trades.{…}, candles.{…}.{resolution}, ticker`,
    );
  }
  let written = dot < 0 ? '' : text.slice(dot + 1);
  let resolution: ChartResolution | undefined;
  if (kind === 'candles') {
    const last = written.lastIndexOf('.');
    resolution = last < 0 ? undefined : parseChartResolution(written.slice(last + 1));
    if (!resolution)
      return failure(
        'bad_channel',
        `candles channel without a known resolution (${CHART_RESOLUTION_NAMES.join(', ')}): ${quoted(text)}`,
      );
    written = written.slice(0, last);
  }
  if (written === '') return failure('bad_channel', `${kind} channel without an instrument: ${quoted(text)}`);
  if (!INSTRUMENT_TEXT.test(written))
    return failure(
      'bad_channel',
      `instrument ${quoted(written)} may hold only letters, digits, '.', '-' and '_'`,
    );
  const instrument = normalizeInstrument(written);
  if (!BASE_AND_QUOTE.test(instrument))
    return failure('bad_channel', `instrument ${quoted(written)} is not written base_quote or base-quote`);
  if (resolution)
    return {
      ok: true,
      channel: { kind: 'candles', instrument, resolution, name: candlesChannelName(instrument, resolution) },
    };
  const name = kind === 'book' ? bookChannelName(instrument) : tradesChannelName(instrument);
  return { ok: true, channel: { kind: kind as 'book' | 'trades', instrument, name } };
}

function failure(code: ChannelErrorCode, message: string): ParsedChannel {
  return { ok: false, error: { code, message } };
}
