import { canonicalDecimal, toDecimal } from '../../src/market/decimal';
import { DAY_MS } from '../../src/market/trade-window';
import { Truth } from '../support/truth';

/** An order book as the API serves it (`/orderbook/{instrument}`), decimals in canonical form. */
export interface ApiBook {
  readonly bids: [string, string][];
  readonly asks: [string, string][];
}

/** A trade as the API serves it (`/trades/{instrument}`), decimals in canonical form. */
export interface ApiTrade {
  readonly id: string;
  readonly price: string;
  readonly amount: string;
  readonly side: string;
  readonly time: number;
}

const REQUEST_TIMEOUT_MS = 5_000;

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text.slice(0, 160)}`);
  return JSON.parse(text) as unknown;
}

/** The full-depth book the API serves for an instrument. */
export async function readApiBook(apiUrl: string, instrument: string): Promise<ApiBook> {
  const body = (await getJson(`${apiUrl}/orderbook/${instrument}`)) as {
    bids: [string, string][];
    asks: [string, string][];
  };
  const levels = (side: [string, string][]) =>
    side.map(([price, amount]): [string, string] => [canonicalDecimal(price), canonicalDecimal(amount)]);
  return { bids: levels(body.bids), asks: levels(body.asks) };
}

/** Every 24-hour trade the API serves for an instrument, newest first. */
export async function readApiTrades(apiUrl: string, instrument: string): Promise<ApiTrade[]> {
  const rows = (await getJson(`${apiUrl}/trades/${instrument}`)) as {
    tradeID: string | number;
    price: string;
    base_volume: string;
    type: string;
    trade_timestamp: string;
  }[];
  return rows.map((row) => ({
    id: String(row.tradeID),
    price: canonicalDecimal(row.price),
    amount: canonicalDecimal(row.base_volume),
    side: row.type,
    time: Number(row.trade_timestamp),
  }));
}

/** The ids that occur more than once in what the API served. */
export function doubledTradeIds(trades: readonly ApiTrade[]): string[] {
  const seen = new Set<string>();
  const doubled = new Set<string>();
  for (const trade of trades) {
    if (seen.has(trade.id)) doubled.add(trade.id);
    seen.add(trade.id);
  }
  return [...doubled];
}

export interface TradeDifference {
  /** Trades of the truth's 24-hour window the API does not serve. */
  readonly missing: readonly string[];
  /** Trades the API serves that the truth does not have. */
  readonly extra: readonly string[];
  /** Trades served more than once. */
  readonly doubled: readonly string[];
  /** Trades served with another price, amount, side or time than the truth's. */
  readonly differing: readonly string[];
}

/**
 * The API's trades against the truth's, both within `now - 24h < time <= now`. With `subsetOnly`
 * the truth may hold trades the API does not have yet (it was read later, while the market moved).
 */
export function compareTrades(
  served: readonly ApiTrade[],
  truth: Truth,
  now: number,
  subsetOnly = false,
): TradeDifference {
  const inWindow = (time: number) => time > now - DAY_MS && time <= now;
  const expected = new Map(truth.trades.filter((trade) => inWindow(trade.time)).map((t) => [t.id, t]));
  const everyTruthTrade = new Map(truth.trades.map((trade) => [trade.id, trade]));
  const windowed = served.filter((trade) => inWindow(trade.time));
  const servedIds = new Set(windowed.map((trade) => trade.id));
  const differing: string[] = [];
  const extra: string[] = [];
  for (const trade of windowed) {
    const original = everyTruthTrade.get(trade.id);
    if (!original) {
      extra.push(trade.id);
      continue;
    }
    if (
      original.price !== trade.price ||
      original.amount !== trade.amount ||
      original.side !== trade.side ||
      original.time !== trade.time
    )
      differing.push(trade.id);
  }
  return {
    missing: subsetOnly ? [] : [...expected.keys()].filter((id) => !servedIds.has(id)),
    extra,
    doubled: doubledTradeIds(windowed),
    differing,
  };
}

export function tradesAgree(difference: TradeDifference): boolean {
  return (
    difference.missing.length === 0 &&
    difference.extra.length === 0 &&
    difference.doubled.length === 0 &&
    difference.differing.length === 0
  );
}

/** Why the API's book is not the truth's, undefined when they are equal level for level. */
export function bookDifference(served: ApiBook, truth: Truth): string | undefined {
  const same = (a: readonly (readonly string[])[], b: readonly (readonly string[])[]) =>
    JSON.stringify(a) === JSON.stringify(b);
  if (same(served.bids, truth.bids) && same(served.asks, truth.asks)) return undefined;
  return `book: ${served.bids.length}/${served.asks.length} levels served, truth ${truth.bids.length}/${truth.asks.length} at version ${truth.version}`;
}

/**
 * What is wrong with a book at any moment, whatever the market does: sides out of order, a level
 * without amount, or a best bid at or above the best ask, which an exchange's book never shows.
 */
export function bookInvariantViolation(book: ApiBook): string | undefined {
  const compare = (a: string, b: string) => toDecimal(a).cmp(toDecimal(b));
  for (let index = 1; index < book.bids.length; index += 1)
    if (compare(book.bids[index - 1][0], book.bids[index][0]) <= 0) return 'bids not strictly descending';
  for (let index = 1; index < book.asks.length; index += 1)
    if (compare(book.asks[index - 1][0], book.asks[index][0]) >= 0) return 'asks not strictly ascending';
  if ([...book.bids, ...book.asks].some(([, amount]) => amount === '0')) return 'a level with amount 0';
  if (book.bids.length > 0 && book.asks.length > 0 && compare(book.bids[0][0], book.asks[0][0]) >= 0)
    return `crossed: best bid ${book.bids[0][0]} >= best ask ${book.asks[0][0]}`;
  return undefined;
}
