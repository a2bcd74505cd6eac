import { canonicalDecimal } from '../../src/market/decimal';
import { DAY_MS } from '../../src/market/trade-window';
import { RunningSandbox } from 'sandbox-exchange';
import { StateStore } from '../../src/store/state-store';
import { ExactJson, parseExactJson } from '../../src/upstream/exact-json';

export interface TruthTrade {
  readonly id: string;
  readonly price: string;
  readonly amount: string;
  readonly side: 'buy' | 'sell';
  readonly time: number;
}

export interface Truth {
  readonly version: number;
  readonly bids: [string, string][];
  readonly asks: [string, string][];
  readonly trades: TruthTrade[];
}

type Level = { price: string; amount: string };

/** The sandbox's own book and trades, read over HTTP with exact decimals, best levels first. */
export async function readTruth(sandbox: RunningSandbox, instrument: string): Promise<Truth> {
  const response = await fetch(`${sandbox.baseUrl}/sandbox/truth/${instrument}`);
  if (!response.ok)
    throw new Error(`truth of ${instrument}: ${response.status} ${(await response.text()).slice(0, 500)}`);
  const body = parseExactJson(await response.text()) as unknown as {
    book: { version: string; bids: Level[]; asks: Level[] };
    trades: ExactJson[][];
  };
  const levels = (side: Level[]) =>
    side.map(({ price, amount }): [string, string] => [canonicalDecimal(price), canonicalDecimal(amount)]);
  return {
    version: Number(body.book.version),
    bids: levels(body.book.bids).reverse(),
    asks: levels(body.book.asks),
    trades: body.trades.map((row) => {
      const [id, , quantity, price, , , time, , takerSide] = row as string[];
      return {
        id,
        price: canonicalDecimal(price),
        amount: canonicalDecimal(quantity),
        side: takerSide === '0' ? 'buy' : 'sell',
        time: Number(time),
      };
    }),
  };
}

export async function setFlow(sandbox: RunningSandbox, ratePerSecond: number): Promise<void> {
  const response = await fetch(`${sandbox.baseUrl}/sandbox/flow`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ratePerSecond }),
  });
  if (!response.ok) throw new Error(`flow: ${response.status}`);
}

export async function setFault(
  sandbox: RunningSandbox,
  name: string,
  enabled: boolean,
  params: Record<string, unknown> = {},
): Promise<void> {
  const response = await fetch(`${sandbox.baseUrl}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, enabled, ...params }),
  });
  if (!response.ok) throw new Error(`fault ${name}: ${response.status} ${await response.text()}`);
}

export interface ComparisonOptions {
  /** Compare the 24-hour trades too (default true); false for a service without a trade feed. */
  readonly trades?: boolean;
}

export interface Comparison {
  readonly matches: boolean;
  readonly detail: string;
}

/**
 * Whether the store holds exactly the truth: the book at the same version, level for level, and the
 * trades of the last 24 hours, none missing and none doubled.
 */
export async function compareWithTruth(
  store: StateStore,
  truth: Truth,
  instrument: string,
  now = Date.now(),
  options: ComparisonOptions = {},
): Promise<Comparison> {
  const book = await store.readBook(instrument);
  if (!book) return { matches: false, detail: 'no book stored' };
  if (book.version !== truth.version)
    return { matches: false, detail: `stored version ${book.version}, truth ${truth.version}` };
  const same = (a: readonly (readonly string[])[], b: readonly (readonly string[])[]) =>
    JSON.stringify(a) === JSON.stringify(b);
  if (!same(book.bids, truth.bids) || !same(book.asks, truth.asks)) {
    return { matches: false, detail: `levels differ at version ${book.version}` };
  }
  if (options.trades === false) return { matches: true, detail: `version ${book.version}` };
  const inWindow = (time: number) => time > now - DAY_MS && time <= now;
  const stored = (await store.readTrades(instrument)).filter((trade) => inWindow(trade.time));
  const expected = truth.trades.filter((trade) => inWindow(trade.time));
  const storedIds = stored.map((trade) => trade.id);
  if (new Set(storedIds).size !== storedIds.length)
    return { matches: false, detail: 'a trade is stored twice' };
  const missing = expected.filter((trade) => !storedIds.includes(trade.id));
  const extra = storedIds.length - (expected.length - missing.length);
  if (missing.length > 0 || extra > 0) {
    return { matches: false, detail: `${missing.length} trades missing, ${extra} not in the truth` };
  }
  const byId = new Map(stored.map((trade) => [trade.id, trade]));
  const wrong = expected.find((trade) => {
    const copy = byId.get(trade.id)!;
    return (
      copy.price !== trade.price ||
      copy.amount !== trade.amount ||
      copy.side !== trade.side ||
      copy.time !== trade.time
    );
  });
  if (wrong) return { matches: false, detail: `trade ${wrong.id} differs` };
  return { matches: true, detail: `version ${book.version}, ${stored.length} trades` };
}

/**
 * Holds the market still and waits until the store equals the truth, so that tests can assert
 * convergence "within a few seconds". Returns the time it took.
 */
export async function expectConverges(
  sandbox: RunningSandbox,
  store: StateStore,
  instruments: readonly string[],
  timeoutMs = 10_000,
  options: ComparisonOptions = {},
): Promise<number> {
  const started = Date.now();
  await setFlow(sandbox, 0);
  const pending = new Set(instruments);
  let last = '';
  while (pending.size > 0) {
    for (const instrument of [...pending]) {
      const truth = await readTruth(sandbox, instrument);
      // A store still reconnecting (a Redis restart) is not there yet, as a mismatch is.
      const comparison = await compareWithTruth(store, truth, instrument, Date.now(), options).catch(
        (error: Error): Comparison => ({ matches: false, detail: `store unreadable: ${error.message}` }),
      );
      if (comparison.matches) pending.delete(instrument);
      else last = `${instrument}: ${comparison.detail}`;
    }
    if (pending.size === 0) break;
    if (Date.now() - started > timeoutMs) throw new Error(`no convergence within ${timeoutMs} ms; ${last}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}
