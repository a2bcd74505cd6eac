import { fail, Finding, warn } from './audit-finding';
import { compare, decimalText, exact, minus, sum } from './exact-decimal';
import { PollSnapshot } from './poll-snapshot';
import { DAY_MS } from './trade-checks';
import { CLOCK_SKEW_MS } from './transport-checks';

/**
 * What a later poll may show, given an earlier one. Markets may be listed or delisted (a warning). A
 * 24-hour volume falls only by the trades that have since left the window; a trade of the window does
 * not vanish; the newest trade and the book's time do not go back.
 */
export function checkPollsConsistent(first: PollSnapshot, second: PollSnapshot): Finding[] {
  const findings: Finding[] = [];
  for (const market of first.figures.keys())
    if (!second.figures.has(market))
      findings.push(warn('polls-consistent', market, 'listed in the first poll, gone in the second'));
  for (const market of second.figures.keys())
    if (!first.figures.has(market)) findings.push(warn('polls-consistent', market, 'new in the second poll'));

  for (const [market, earlier] of first.trades) {
    const windowStart = second.listsAtMs - DAY_MS;
    const before = first.figures.get(market);
    const after = second.figures.get(market);
    if (before?.baseVolume !== undefined && after?.baseVolume !== undefined) {
      const agedOut = sum(
        earlier.trades
          .filter(
            (trade) =>
              trade.timeMs !== undefined && trade.timeMs <= windowStart && trade.baseVolume !== undefined,
          )
          .map((trade) => exact(trade.baseVolume!)),
      );
      const floor = minus(exact(before.baseVolume), agedOut);
      if (compare(exact(after.baseVolume), floor) < 0)
        findings.push(
          fail(
            'polls-consistent',
            `${after.where} base volume`,
            `fell from ${before.baseVolume} to ${after.baseVolume}, though trades of ${decimalText(agedOut)} left the window`,
          ),
        );
    }
    const later = second.trades.get(market);
    if (later === undefined) continue;
    const kept = new Set(later.trades.map((trade) => trade.id));
    const lost = earlier.trades.find(
      (trade) =>
        !kept.has(trade.id) &&
        trade.timeMs !== undefined &&
        trade.timeMs > later.fetched.receivedAtMs - DAY_MS + CLOCK_SKEW_MS,
    );
    if (lost !== undefined)
      findings.push(
        fail(
          'polls-consistent',
          later.fetched.path,
          `trade ${lost.id} of the last 24 hours is gone in the second poll`,
        ),
      );
    const newestBefore = newest(earlier.trades.map((trade) => trade.timeMs));
    const newestAfter = newest(later.trades.map((trade) => trade.timeMs));
    if (newestBefore !== undefined && newestAfter !== undefined && newestAfter < newestBefore)
      findings.push(
        fail(
          'polls-consistent',
          later.fetched.path,
          `newest trade went back from ${new Date(newestBefore).toISOString()} to ${new Date(newestAfter).toISOString()}`,
        ),
      );
  }

  for (const [market, earlier] of first.books) {
    const later = second.books.get(market);
    const before = earlier.book.timestampMs;
    const after = later?.book.timestampMs;
    if (later !== undefined && before !== undefined && after !== undefined && after < before)
      findings.push(
        fail('polls-consistent', `${later.book.where}.timestamp`, `went back from ${before} to ${after}`),
      );
  }
  return findings;
}

function newest(times: readonly (number | undefined)[]): number | undefined {
  return times.reduce<number | undefined>(
    (newest, time) => (time !== undefined && (newest === undefined || time > newest) ? time : newest),
    undefined,
  );
}
