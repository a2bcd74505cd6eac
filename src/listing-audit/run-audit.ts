import { Finding } from './audit-finding';
import { FormatName } from './audit-format';
import { AUDIT_FORMATS } from './audit-formats';
import { CheckResult, summarize } from './audit-report';
import {
  checkBookAmounts,
  checkBookFresh,
  checkBookOrder,
  checkBookUncrossed,
  checkPriceVsBook,
} from './book-checks';
import { CheckName } from './check-names';
import { checkPollsConsistent } from './poll-consistency-checks';
import { PollSettings, PollSnapshot, takePoll } from './poll-snapshot';
import { checkTradeIds, checkTradeQuoteVolume, checkTradesWindow } from './trade-checks';
import { checkTransport } from './transport-checks';
import { checkVolumes } from './volume-checks';

export interface AuditSettings extends PollSettings {
  readonly format: FormatName;
  /** Time between the two polls; 0 polls once. */
  readonly intervalMs: number;
  /** A book older than this, or an X-Data-Age-Ms above it, is worth a warning. */
  readonly staleAfterMs: number;
}

export interface AuditOutcome {
  readonly results: CheckResult[];
  readonly polls: number;
  readonly markets: number;
  readonly sampled: number;
  readonly requests: number;
}

/** Polls the listing once, or twice `intervalMs` apart, and runs every check on what it read. */
export async function runAudit(
  settings: AuditSettings,
  progress: (line: string) => void = () => {},
): Promise<AuditOutcome> {
  const format = AUDIT_FORMATS[settings.format];
  progress(`poll 1 of ${settings.intervalMs > 0 ? 2 : 1}`);
  const first = await takePoll(format, settings);
  const findings = checkPoll(first, settings);
  const skipped = new Map<CheckName, string>();
  let second: PollSnapshot | undefined;
  if (settings.intervalMs > 0) {
    progress(`waiting ${settings.intervalMs / 1000} s for poll 2`);
    await new Promise((resolve) => setTimeout(resolve, settings.intervalMs));
    progress('poll 2 of 2');
    second = await takePoll(format, settings);
    findings.push(...checkPoll(second, settings), ...checkPollsConsistent(first, second));
  } else skipped.set('polls-consistent', 'one poll (--interval 0)');
  if (first.sampled.length === 0)
    for (const check of [
      'price-vs-book',
      'book-order',
      'book-uncrossed',
      'book-amounts',
      'book-fresh',
      'trades-window',
      'trade-ids',
      'trade-quote-volume',
      'volumes-match-trades',
    ] as const)
      skipped.set(check, 'no market to sample');
  return {
    results: summarize(findings, skipped),
    polls: second ? 2 : 1,
    markets: first.figures.size,
    sampled: first.sampled.length,
    requests: first.fetched.length + (second?.fetched.length ?? 0),
  };
}

function checkPoll(poll: PollSnapshot, settings: AuditSettings): Finding[] {
  const format = AUDIT_FORMATS[settings.format];
  const transport = {
    gzipRequired: format.gzipRequired,
    optionalPaths: new Set(format.lists.filter((list) => !list.mandatory).map((list) => list.path)),
    staleAfterMs: settings.staleAfterMs,
  };
  const findings = [
    ...poll.fetched.flatMap((fetched) => checkTransport(fetched, transport)),
    ...poll.findings,
  ];
  for (const { market } of poll.sampled) {
    const trades = poll.trades.get(market);
    if (trades) {
      findings.push(
        ...checkTradesWindow(trades.trades, trades.fetched.receivedAtMs, format.tradesOnlyLast24h),
        ...checkTradeIds(trades.trades),
        ...checkTradeQuoteVolume(trades.trades),
      );
    }
    findings.push(...checkVolumes(market, poll.volumeRounds.get(market) ?? []));
    const book = poll.books.get(market);
    if (book === undefined) continue;
    const newestTradeMs = (trades?.trades ?? []).reduce<number | undefined>(
      (newest, trade) =>
        trade.timeMs !== undefined && (newest === undefined || trade.timeMs > newest) ? trade.timeMs : newest,
      undefined,
    );
    findings.push(
      ...checkBookOrder(book.book),
      ...checkBookUncrossed(book.book),
      ...checkBookAmounts(book.book),
      ...checkBookFresh(book.book, {
        receivedAtMs: book.fetched.receivedAtMs,
        lastModified: book.fetched.headers['last-modified'],
        newestTradeMs,
        staleAfterMs: settings.staleAfterMs,
      }),
    );
    const figures = poll.figures.get(market);
    if (figures) findings.push(...checkPriceVsBook(figures, book.book));
  }
  return findings;
}
