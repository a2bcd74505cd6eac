import { fail, Finding } from './audit-finding';
import { checkDecimal, checkRecord, FieldRule, isPlainDecimal } from './field-rules';
import { isJsonNumber, isJsonObject, JsonValue, shown } from './json-body';
import { BookLevel, BookView, MarketFigures, Read, TradeView } from './market-views';

/** A book's side: `[price, amount]` pairs of decimal strings (a side that is no array is the field rules' to report). */
function readLevels(value: JsonValue | undefined, where: string): Read<BookLevel[]> {
  if (!Array.isArray(value)) return { findings: [] };
  const findings: Finding[] = [];
  const levels: BookLevel[] = [];
  value.forEach((entry, index) => {
    const at = `${where}[${index}]`;
    if (!Array.isArray(entry) || entry.length !== 2) {
      findings.push(fail('field-types', at, `expected [price, amount], got ${shown(entry)}`));
      return;
    }
    findings.push(...checkDecimal(entry[0], `${at} price`), ...checkDecimal(entry[1], `${at} amount`));
    if (isPlainDecimal(entry[0]) && isPlainDecimal(entry[1]))
      levels.push({ price: entry[0], amount: entry[1] });
  });
  return { findings, value: levels };
}

/** Unix milliseconds from a JSON integer or a string of digits. */
export function unixTime(value: JsonValue | undefined): number | undefined {
  const text = isJsonNumber(value) ? value.value : value;
  return typeof text === 'string' && /^\d+$/.test(text) ? Number(text) : undefined;
}

export function readBookRecord(
  body: JsonValue,
  rules: readonly FieldRule[],
  market: string,
  where: string,
): Read<BookView> {
  const findings = checkRecord(body, rules, where);
  if (!isJsonObject(body)) return { findings };
  const bids = readLevels(body.bids, `${where}.bids`);
  const asks = readLevels(body.asks, `${where}.asks`);
  findings.push(...bids.findings, ...asks.findings);
  return {
    findings,
    value: {
      market,
      where,
      timestampMs: unixTime(body.timestamp),
      bids: bids.value ?? [],
      asks: asks.value ?? [],
    },
  };
}

/** Where a format keeps a trade's figures. */
export interface TradeKeys {
  readonly id: string;
  readonly baseVolume: string;
  readonly quoteVolume: string;
  readonly time: string;
}

export function readTradeList(
  list: readonly JsonValue[],
  rules: readonly FieldRule[],
  keys: TradeKeys,
  where: string,
): Read<TradeView[]> {
  const findings: Finding[] = [];
  const trades: TradeView[] = [];
  list.forEach((record, index) => {
    const at = `${where}[${index}]`;
    findings.push(...checkRecord(record, rules, at));
    if (!isJsonObject(record)) return;
    const id = record[keys.id];
    trades.push({
      where: at,
      id: isJsonNumber(id) ? id.value : typeof id === 'string' ? id : shown(id),
      price: plain(record.price),
      baseVolume: plain(record[keys.baseVolume]),
      quoteVolume: plain(record[keys.quoteVolume]),
      timeMs: unixTime(record[keys.time]),
    });
  });
  return { findings, value: trades };
}

/** Where a format keeps a market's last price and 24-hour volumes. */
export interface FigureKeys {
  readonly last: string;
  readonly baseVolume: string;
  readonly quoteVolume: string;
}

export function readFigures(
  record: JsonValue,
  keys: FigureKeys,
  market: string,
  where: string,
): MarketFigures | undefined {
  if (!isJsonObject(record)) return undefined;
  const last = record[keys.last];
  return {
    market,
    where,
    last: last === null ? null : plain(last),
    baseVolume: plain(record[keys.baseVolume]),
    quoteVolume: plain(record[keys.quoteVolume]),
  };
}

function plain(value: JsonValue | undefined): string | undefined {
  return isPlainDecimal(value) ? value : undefined;
}

/** An object keyed by market or symbol; anything else is reported and read as empty. */
export function keyedRecords(
  body: JsonValue | undefined,
  where: string,
  findings: Finding[],
): Record<string, JsonValue> {
  if (body === undefined) return {};
  if (isJsonObject(body)) return body;
  findings.push(fail('field-types', where, 'expected an object keyed by market or symbol'));
  return {};
}

/** A trades body that must be an array of trade records (the listing and CMC formats). */
export function readTradeArray(
  body: JsonValue,
  rules: readonly FieldRule[],
  keys: TradeKeys,
  where: string,
): Read<TradeView[]> {
  if (!Array.isArray(body)) return { findings: [fail('field-types', where, 'expected an array of trades')] };
  return readTradeList(body, rules, keys, where);
}
