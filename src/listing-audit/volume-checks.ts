import { fail, Finding, warn } from './audit-finding';
import {
  abs,
  compare,
  decimalText,
  exact,
  ExactDecimal,
  halfLastDigit,
  minus,
  sum,
  times,
} from './exact-decimal';
import { MarketFigures, TradeView } from './market-views';
import { DAY_MS } from './trade-checks';

/**
 * One attempt at comparing a market's 24-hour volumes with its trades: trades read, the figures read,
 * trades read again. When both trade reads hold the same trades, the figures were computed from
 * exactly those (unless a trade came and went in between, which one read cannot see).
 */
export interface VolumeRound {
  readonly settled: boolean;
  readonly figures?: MarketFigures;
  readonly trades: readonly TradeView[];
  readonly figuresAtMs: number;
}

/**
 * Base volume = the sum of the trades' base volumes; quote volume = the sum of price x base volume,
 * or the sum of the trades' quote volumes (exchanges add either); each to half a last digit of the
 * figure as written. Without a settled round the result is inconclusive,
 * never a failure: trades kept coming while the audit read.
 */
export function checkVolumes(market: string, rounds: readonly VolumeRound[]): Finding[] {
  const round = rounds.find((candidate) => candidate.settled);
  if (round === undefined)
    return [
      warn(
        'volumes-match-trades',
        market,
        `inconclusive: the trades changed between the reads around the 24-hour figures in ${rounds.length} attempts`,
      ),
    ];
  const figures = round.figures;
  if (figures === undefined || figures.baseVolume === undefined || figures.quoteVolume === undefined)
    return [];
  const inWindow = round.trades.filter(
    (trade) => trade.timeMs === undefined || trade.timeMs > round.figuresAtMs - DAY_MS,
  );
  if (inWindow.some((trade) => trade.price === undefined || trade.baseVolume === undefined)) return [];
  const findings: Finding[] = [];
  const baseSum = sum(inWindow.map((trade) => exact(trade.baseVolume!)));
  if (!within(exact(figures.baseVolume), baseSum, halfLastDigit(figures.baseVolume)))
    findings.push(
      fail(
        'volumes-match-trades',
        `${figures.where} base volume`,
        `${figures.baseVolume}, but the sum of its ${trades(inWindow.length)} is ${decimalText(baseSum)}`,
      ),
    );
  const productSum = sum(inWindow.map((trade) => times(exact(trade.price!), exact(trade.baseVolume!))));
  const quoteTexts = inWindow.map((trade) => trade.quoteVolume);
  const quoteSum = quoteTexts.every((text) => text !== undefined)
    ? sum(quoteTexts.map((text) => exact(text!)))
    : undefined;
  const written = exact(figures.quoteVolume);
  const slack = halfLastDigit(figures.quoteVolume);
  const matchesProducts = within(written, productSum, slack);
  const matchesQuotes = quoteSum !== undefined && within(written, quoteSum, slack);
  if (!matchesProducts && !matchesQuotes)
    findings.push(
      fail(
        'volumes-match-trades',
        `${figures.where} quote volume`,
        `${figures.quoteVolume}, but the sum of its ${trades(inWindow.length)} is ${decimalText(productSum)} (price x base volume)`,
      ),
    );
  return findings;
}

function within(value: ExactDecimal, target: ExactDecimal, slack: ExactDecimal): boolean {
  return compare(abs(minus(value, target)), slack) <= 0;
}

function trades(count: number): string {
  return count === 1 ? '1 trade' : `${count} trades`;
}
