import { MarketInfo } from '../../market/market-info';
import { ExactJson } from '../exact-json';
import { unixMsFromDotNetTicks } from '../../market/dotnet-ticks';
import { normalizeExchangeDate } from '../../market/exchange-date';
import { FieldError, JsonFields } from '../json-fields';
import { MalformedBodyError } from '../malformed-body-error';

/** The body of `GET /frontoffice/api/info`, decoded. */
export interface ExchangeInfo {
  /** The exchange's clock, Unix milliseconds. */
  readonly serverTime: number;
  /** Markets in the order the exchange listed them, hidden ones included. */
  readonly markets: readonly MarketInfo[];
  /** Entries of `pairs` that broke a rule and were left out; the other markets are unaffected. */
  readonly skipped: readonly SkippedMarket[];
}

export interface SkippedMarket {
  /** The entry's key in `pairs`. */
  readonly key: string;
  readonly problem: string;
}

/** Scales the decoder accepts; the exchange documents 2-18, smaller ones are harmless to carry. */
const MAX_SCALE = 18;

const STATUSES = ['Open', 'Halted', 'Paused'];
const SIDES = ['BuySell', 'Buy', 'Sell'];

function matchCase(value: string, known: readonly string[]): string {
  return known.find((name) => name.toLowerCase() === value.toLowerCase()) ?? value;
}

/**
 * `Open`, `Halted` or `Paused` whatever the letter case; a numeric 0 (seen in one sample) is `Open`;
 * an absent status (older versions) is `Open`; any other text is kept as sent.
 */
export function normalizeMarketStatus(fields: JsonFields, key: string): string {
  if (!fields.has(key)) return 'Open';
  const status = fields.string(key);
  return status === '0' ? 'Open' : matchCase(status, STATUSES);
}

function date(fields: JsonFields, key: string): string {
  const text = fields.string(key);
  const normalized = normalizeExchangeDate(text);
  if (normalized === undefined) throw new FieldError(fields.at(key), 'a UTC date YYYY-MM-DDThh:mm:ss', text);
  return normalized;
}

/**
 * One entry of `pairs`. Fields present in every known version of the exchange are required;
 * `priceDeviation`, `status`, `side` and `isCustom`, added later, default to "0", `Open`, `BuySell`
 * and false. Fields the gateway does not use (`minPrice`, `fee`, `makerFeeLimit`...) are ignored.
 */
function decodeMarket(key: string, value: ExactJson, record: string | undefined): MarketInfo {
  const fields = JsonFields.of(value, `pairs.${key}`);
  const baseAsset = fields.string('baseAsset').toLowerCase();
  const quoteAsset = fields.string('quoteAsset').toLowerCase();
  const instrument = `${baseAsset}_${quoteAsset}`;
  if (key.toLowerCase() !== instrument) {
    throw new FieldError(fields.path, `the key to be baseAsset_quoteAsset (${instrument})`, key);
  }
  return {
    instrument,
    baseAsset,
    quoteAsset,
    priceScale: fields.integer('priceScale', 0, MAX_SCALE),
    amountScale: fields.integer('amountScale', 0, MAX_SCALE),
    minAmount: fields.decimal('minAmount'),
    priceDeviation: fields.has('priceDeviation') ? fields.decimal('priceDeviation') : '0',
    makerFee: fields.decimal('makerFee'),
    takerFee: fields.decimal('takerFee'),
    hidden: fields.flag('hidden'),
    status: normalizeMarketStatus(fields, 'status'),
    side: fields.has('side') ? matchCase(fields.string('side'), SIDES) : 'BuySell',
    isCustom: fields.has('isCustom') ? fields.flag('isCustom') : false,
    createdAt: date(fields, 'createdAt'),
    updatedAt: date(fields, 'updatedAt'),
    ...(record === undefined ? {} : { exchangeRecord: record }),
  };
}

/**
 * Decodes `{ serverTime, pairs }`. `serverTime` is in .NET ticks and becomes Unix milliseconds
 * exactly. A market entry that breaks a rule is skipped and listed in `skipped`, so that one bad
 * market does not hide the others; a body without a valid `serverTime` or `pairs` object is rejected
 * with a MalformedBodyError.
 *
 * @param records Each entry's own JSON text by lower-case key (see exchangeRecords), kept as the
 *   market's `exchangeRecord`.
 */
export function decodeInfo(body: ExactJson, records?: ReadonlyMap<string, string>): ExchangeInfo {
  let serverTime: number | undefined;
  let pairs: JsonFields;
  try {
    const fields = JsonFields.of(body, '');
    const ticks = fields.raw('serverTime');
    serverTime = typeof ticks === 'string' ? unixMsFromDotNetTicks(ticks) : undefined;
    if (serverTime === undefined) throw new FieldError('serverTime', 'an integer count of .NET ticks', ticks);
    pairs = fields.object('pairs');
  } catch (error) {
    if (error instanceof FieldError) throw new MalformedBodyError('info', [error.message]);
    throw error;
  }

  const markets: MarketInfo[] = [];
  const skipped: SkippedMarket[] = [];
  const seen = new Set<string>();
  for (const [key, value] of pairs.entries()) {
    try {
      const market = decodeMarket(key, value, records?.get(key.toLowerCase()));
      if (seen.has(market.instrument)) {
        skipped.push({ key, problem: `pairs.${key}: a second entry for ${market.instrument}` });
        continue;
      }
      seen.add(market.instrument);
      markets.push(market);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      skipped.push({ key, problem: error.message });
    }
  }
  return { serverTime, markets, skipped };
}
