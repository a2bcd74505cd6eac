import { Finding } from './audit-finding';
import { AuditFormat } from './audit-format';
import { Fetched, fetchEndpoint } from './http-poller';
import { JsonValue } from './json-body';
import { BookView, MarketFigures, MarketRef, TradeView } from './market-views';
import { VolumeRound } from './volume-checks';

export interface PollSettings {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** How many markets to read books and trades of; 0 for all. */
  readonly markets: number;
  /** Attempts at reading trades, figures and trades again with no trade between. */
  readonly attempts: number;
  readonly retryDelayMs: number;
}

export interface MarketTrades {
  readonly trades: readonly TradeView[];
  readonly fetched: Fetched;
}

export interface MarketBook {
  readonly book: BookView;
  readonly fetched: Fetched;
}

/** Everything one poll read, and what reading the records found. */
export interface PollSnapshot {
  readonly startedAtMs: number;
  /** When the lists had arrived: the time of `figures`. */
  readonly listsAtMs: number;
  readonly fetched: readonly Fetched[];
  readonly findings: readonly Finding[];
  readonly figures: ReadonlyMap<string, MarketFigures>;
  readonly sampled: readonly MarketRef[];
  readonly trades: ReadonlyMap<string, MarketTrades>;
  readonly books: ReadonlyMap<string, MarketBook>;
  readonly volumeRounds: ReadonlyMap<string, readonly VolumeRound[]>;
}

/** A few requests at a time: enough to be quick, few enough for an exchange's rate limit. */
const CONCURRENCY = 4;

/**
 * One poll as an aggregator makes it: the lists, then each sampled market's trades around a fresh read
 * of the 24-hour figures, then its book (after the trades, so the book cannot predate a trade it saw).
 */
export async function takePoll(format: AuditFormat, settings: PollSettings): Promise<PollSnapshot> {
  const startedAtMs = Date.now();
  const fetched: Fetched[] = [];
  const findings: Finding[] = [];
  const get = async (path: string) => {
    const answer = await fetchEndpoint(settings.baseUrl, path, settings.timeoutMs);
    fetched.push(answer);
    return answer;
  };
  const bodies = new Map<string, JsonValue>();
  for (const list of format.lists) {
    const answer = await get(list.path);
    if (answer.status === 200 && answer.json !== undefined) bodies.set(list.path, answer.json);
  }
  const listsAtMs = Date.now();
  const lists = format.readLists(bodies);
  findings.push(...lists.findings);
  const byName = [...lists.markets].sort((a, b) => a.market.localeCompare(b.market));
  const sampled = settings.markets > 0 ? byName.slice(0, settings.markets) : byName;

  const readTrades = async (market: MarketRef) => {
    const answer = await get(format.tradesPath(market));
    const read =
      answer.status === 200 && answer.json !== undefined
        ? format.readTrades(answer.json, market, answer.path)
        : { findings: [] };
    return { answer, read };
  };
  const volumeRounds = new Map<string, VolumeRound[]>(sampled.map((market) => [market.market, []]));
  const lastTrades = new Map<string, Awaited<ReturnType<typeof readTrades>>>();
  let pending = sampled;
  for (let attempt = 0; attempt < settings.attempts && pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, settings.retryDelayMs));
    const before = await mapLimited(pending, readTrades);
    const figuresAnswer = await get(format.figuresPath);
    const figures =
      figuresAnswer.status === 200 && figuresAnswer.json !== undefined
        ? format.readFigures(figuresAnswer.json)
        : new Map<string, MarketFigures>();
    const after = await mapLimited(pending, readTrades);
    const unsettled: MarketRef[] = [];
    pending.forEach((market, index) => {
      const settled = sameTrades(before[index].read.value, after[index].read.value);
      volumeRounds.get(market.market)!.push({
        settled,
        figures: figures.get(market.market),
        trades: after[index].read.value ?? [],
        figuresAtMs: figuresAnswer.receivedAtMs,
      });
      lastTrades.set(market.market, after[index]);
      if (!settled) unsettled.push(market);
    });
    pending = unsettled;
  }
  const trades = new Map<string, MarketTrades>();
  for (const [market, { answer, read }] of lastTrades) {
    findings.push(...read.findings);
    if (read.value) trades.set(market, { trades: read.value, fetched: answer });
  }

  const books = new Map<string, MarketBook>();
  await mapLimited(sampled, async (market) => {
    const answer = await get(format.bookPath(market));
    if (answer.status !== 200 || answer.json === undefined) return;
    const read = format.readBook(answer.json, market, answer.path);
    findings.push(...read.findings);
    if (read.value) books.set(market.market, { book: read.value, fetched: answer });
  });

  return {
    startedAtMs,
    listsAtMs,
    fetched,
    findings,
    figures: lists.figures,
    sampled,
    trades,
    books,
    volumeRounds,
  };
}

function sameTrades(a: readonly TradeView[] | undefined, b: readonly TradeView[] | undefined): boolean {
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  const ids = new Set(a.map((trade) => trade.id));
  return b.every((trade) => ids.has(trade.id));
}

async function mapLimited<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return results;
}
