import { fail, Finding, warn } from './audit-finding';
import { compare, exact, ZERO } from './exact-decimal';
import { BookLevel, BookView, MarketFigures } from './market-views';
import { CLOCK_SKEW_MS } from './transport-checks';

/** Unix milliseconds are 13 digits since 2001; a 10-digit value is seconds written where milliseconds belong. */
const FIRST_MILLISECOND_TIME = 1_000_000_000_000;
/** How much earlier than the newest trade a book's time may be: clocks of two services and their rounding. */
export const BOOK_TRADE_SLACK_MS = 2000;
/** The last price further from the book's mid than this factor is worth a look; near its inverse it is a swap. */
const FAR_FROM_BOOK = 2;
const INVERTED_BEYOND = 10;

export function checkBookOrder(book: BookView): Finding[] {
  return [
    ...strictlyOrdered(book.bids, 'bids', -1, book.where),
    ...strictlyOrdered(book.asks, 'asks', 1, book.where),
  ];
}

function strictlyOrdered(
  levels: readonly BookLevel[],
  side: string,
  direction: -1 | 1,
  where: string,
): Finding[] {
  for (let index = 1; index < levels.length; index++) {
    if (compare(exact(levels[index].price), exact(levels[index - 1].price)) !== direction) {
      const order = direction === 1 ? 'ascending' : 'descending';
      return [
        fail(
          'book-order',
          `${where}.${side}[${index}]`,
          `price ${levels[index].price} after ${levels[index - 1].price}: not strictly ${order}`,
        ),
      ];
    }
  }
  return [];
}

export function checkBookUncrossed(book: BookView): Finding[] {
  const bid = bestOf(book.bids, 1);
  const ask = bestOf(book.asks, -1);
  if (bid === undefined || ask === undefined || compare(exact(bid), exact(ask)) < 0) return [];
  return [fail('book-uncrossed', book.where, `best bid ${bid} is not below best ask ${ask}`)];
}

/** The best price of a side whatever order it was served in (1: highest, -1: lowest). */
function bestOf(levels: readonly BookLevel[], sign: 1 | -1): string | undefined {
  let best: string | undefined;
  for (const level of levels)
    if (best === undefined || compare(exact(level.price), exact(best)) === sign) best = level.price;
  return best;
}

export function checkBookAmounts(book: BookView): Finding[] {
  const findings: Finding[] = [];
  for (const [side, levels] of [
    ['bids', book.bids],
    ['asks', book.asks],
  ] as const) {
    levels.forEach((level, index) => {
      if (compare(exact(level.amount), ZERO) <= 0 || compare(exact(level.price), ZERO) <= 0)
        findings.push(
          fail('book-amounts', `${book.where}.${side}[${index}]`, `[${level.price}, ${level.amount}]`),
        );
    });
  }
  return findings;
}

export interface BookTiming {
  /** When the book's answer arrived, on the local clock. */
  readonly receivedAtMs: number;
  /** The book answer's Last-Modified header, if any. */
  readonly lastModified?: string;
  /** The newest trade time of the market, read before the book. */
  readonly newestTradeMs?: number;
  readonly staleAfterMs: number;
}

/** A book changes with every trade of its market, so its time cannot be older than the newest trade. */
export function checkBookFresh(book: BookView, timing: BookTiming): Finding[] {
  const findings: Finding[] = [];
  const { timestampMs } = book;
  const newest = timing.newestTradeMs;
  if (timestampMs !== undefined) {
    const at = `${book.where}.timestamp`;
    if (timestampMs < FIRST_MILLISECOND_TIME)
      return [fail('book-fresh', at, `${timestampMs} reads as Unix seconds, not milliseconds`)];
    if (timestampMs > timing.receivedAtMs + CLOCK_SKEW_MS)
      findings.push(fail('book-fresh', at, `${new Date(timestampMs).toISOString()} is in the future`));
    if (newest !== undefined && timestampMs < newest - BOOK_TRADE_SLACK_MS)
      findings.push(
        fail(
          'book-fresh',
          at,
          `${new Date(timestampMs).toISOString()}, ${seconds(newest - timestampMs)} before the newest trade (${new Date(newest).toISOString()}): a stale book`,
        ),
      );
    else if (timestampMs < timing.receivedAtMs - timing.staleAfterMs)
      findings.push(
        warn(
          'book-fresh',
          at,
          `not updated for ${seconds(timing.receivedAtMs - timestampMs)} (a quiet market, or a stale book)`,
        ),
      );
  }
  const modified = timing.lastModified === undefined ? NaN : Date.parse(timing.lastModified);
  // Last-Modified has whole seconds: compare with the newest trade's second.
  if (
    !Number.isNaN(modified) &&
    newest !== undefined &&
    modified < Math.floor(newest / 1000) * 1000 - BOOK_TRADE_SLACK_MS
  )
    findings.push(
      fail(
        'book-fresh',
        `${book.where} Last-Modified`,
        `"${timing.lastModified}", ${seconds(newest - modified)} before the newest trade: a stale book`,
      ),
    );
  return findings;
}

/**
 * The last price against the book's mid, on a log scale: a pair served the wrong way round shows a
 * last price near 1/mid. A price more than ten times away from the mid and nearer its inverse fails;
 * one more than twice away warns (an old last price on a quiet market can be). Pairs priced near 1
 * cannot be told apart this way, and need not be.
 */
export function checkPriceVsBook(figures: MarketFigures, book: BookView): Finding[] {
  const bid = bestOf(book.bids, 1);
  const ask = bestOf(book.asks, -1);
  const last = figures.last === null || figures.last === undefined ? NaN : Number(figures.last);
  if (bid === undefined || ask === undefined || !(last > 0)) return [];
  const mid = (Number(bid) + Number(ask)) / 2;
  if (!(mid > 0)) return [];
  const fromMid = Math.abs(Math.log(last / mid));
  const fromInverse = Math.abs(Math.log(last * mid));
  const said = `last ${figures.last} against the book's mid ${mid.toPrecision(6)} (bid ${bid}, ask ${ask})`;
  if (fromMid > Math.log(INVERTED_BEYOND) && fromInverse < fromMid)
    return [fail('price-vs-book', figures.where, `${said}: near 1/mid, base and quote swapped`)];
  if (fromMid > Math.log(FAR_FROM_BOOK))
    return [warn('price-vs-book', figures.where, `${said}: far from the book`)];
  return [];
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}
