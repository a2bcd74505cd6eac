import { DAY_MS } from '../../src/market/trade-window';
import { RunningSandbox } from 'sandbox-exchange';
import { sleep } from '../support/fault-run';
import { readTruth } from '../support/truth';
import {
  bookDifference,
  bookInvariantViolation,
  compareTrades,
  readApiBook,
  readApiTrades,
  tradesAgree,
} from './api-state';

export interface Violation {
  readonly at: string;
  readonly context: string;
  readonly detail: string;
}

/**
 * Watches the API while the market moves and faults come and go. The API's state trails the
 * exchange's, so only what can never be right is a violation: a trade served twice, a trade the
 * exchange never made or with other figures than the exchange's, a book out of order or crossed.
 */
export class ContinuousChecker {
  private readonly violations: Violation[] = [];
  /** Ids of every trade ever served twice in one response. */
  private readonly doubled = new Set<string>();
  /** Ids of every trade that one answer had and a later answer of the same process lacked. */
  private readonly vanished = new Set<string>();
  /** The trade ids of each process's last answer, by URL and instrument. */
  private readonly lastServed = new Map<string, ReadonlySet<string>>();
  private rounds = 0;
  private loop: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly sandbox: RunningSandbox,
    private readonly instruments: readonly string[],
    private readonly urls: () => string[],
    private readonly context: () => string,
  ) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<{ rounds: number; violations: Violation[]; doubled: string[]; vanished: string[] }> {
    this.stopped = true;
    await this.loop;
    return {
      rounds: this.rounds,
      violations: [...this.violations],
      doubled: [...this.doubled],
      vanished: [...this.vanished],
    };
  }

  private async run(): Promise<void> {
    let turn = 0;
    while (!this.stopped) {
      const instrument = this.instruments[turn % this.instruments.length];
      turn += 1;
      for (const url of this.urls()) await this.check(url, instrument).catch(() => undefined);
      this.rounds += 1;
      await sleep(100);
    }
  }

  private async check(url: string, instrument: string): Promise<void> {
    const context = this.context();
    const [book, trades] = await Promise.all([readApiBook(url, instrument), readApiTrades(url, instrument)]);
    // Read after the API's answer, so that the truth holds every trade the API could know of.
    const truth = await readTruth(this.sandbox, instrument);
    const record = (detail: string) =>
      this.violations.push({ at: new Date().toISOString(), context, detail: `${instrument}: ${detail}` });
    const broken = bookInvariantViolation(book);
    if (broken) record(broken);
    const difference = compareTrades(trades, truth, Date.now(), true);
    for (const id of difference.doubled) this.doubled.add(`${instrument}:${id}`);
    if (difference.doubled.length > 0) record(`trades served twice: ${difference.doubled.join(', ')}`);
    if (difference.extra.length > 0) record(`trades not in the truth: ${difference.extra.join(', ')}`);
    if (difference.differing.length > 0)
      record(`trades with other figures: ${difference.differing.join(', ')}`);
    // A trade of the 24-hour window, once served, is served until it leaves the window.
    const now = Date.now();
    const inWindow = new Set(truth.trades.filter((t) => t.time > now - DAY_MS).map((t) => t.id));
    const served = new Set(trades.map((t) => t.id));
    const key = `${url} ${instrument}`;
    const gone = [...(this.lastServed.get(key) ?? [])].filter((id) => inWindow.has(id) && !served.has(id));
    this.lastServed.set(key, served);
    for (const id of gone) this.vanished.add(`${instrument}:${id}`);
    if (gone.length > 0) record(`${gone.length} trades served before are missing now`);
  }
}

export interface Convergence {
  readonly converged: boolean;
  /** From the start of the wait until every API process served the truth. */
  readonly ms: number;
  /** What still differed when the wait gave up. */
  readonly detail: string;
  /** Trades (`instrument:id`) still missing when the wait gave up. */
  readonly missing: readonly string[];
  readonly doubled: readonly string[];
}

/**
 * Waits, with the market held still, until every API process serves exactly the truth of every
 * instrument: the full-depth book level for level and every trade of the last 24 hours, once.
 */
export async function untilConverged(
  sandbox: RunningSandbox,
  instruments: readonly string[],
  urls: () => string[],
  timeoutMs: number,
): Promise<Convergence> {
  const started = Date.now();
  let pending = [...instruments];
  let detail = '';
  let missing: string[] = [];
  let doubled: string[] = [];
  for (;;) {
    const still: string[] = [];
    missing = [];
    doubled = [];
    for (const instrument of pending) {
      const truth = await readTruth(sandbox, instrument);
      const current = urls();
      let agrees = current.length > 0;
      if (!agrees) detail = 'no API process runs';
      for (const url of current) {
        try {
          const [book, trades] = await Promise.all([
            readApiBook(url, instrument),
            readApiTrades(url, instrument),
          ]);
          const now = Date.now();
          const difference = compareTrades(trades, truth, now);
          const books = bookDifference(book, truth);
          if (books || !tradesAgree(difference)) {
            agrees = false;
            missing.push(...difference.missing.map((id) => `${instrument}:${id}`));
            doubled.push(...difference.doubled.map((id) => `${instrument}:${id}`));
            detail = `${url} ${instrument}: ${books ?? ''} trades missing ${difference.missing.length}, extra ${difference.extra.length}, doubled ${difference.doubled.length}, differing ${difference.differing.length}`;
          }
        } catch (error) {
          agrees = false;
          detail = `${url} ${instrument}: ${(error as Error).message}`;
        }
      }
      if (!agrees) still.push(instrument);
    }
    pending = still;
    const ms = Date.now() - started;
    if (pending.length === 0) return { converged: true, ms, detail: '', missing: [], doubled: [] };
    if (ms > timeoutMs) return { converged: false, ms, detail, missing, doubled };
    await sleep(100);
  }
}
