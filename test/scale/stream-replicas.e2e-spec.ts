import { FAULT_NAMES, FaultName, RunningSandbox } from 'sandbox-exchange';
import { canonicalDecimal } from '../../src/market/decimal';
import { BookChannelMessage } from '../../src/market/stream/book-channel-message';
import { BookReader } from '../../src/market/stream/testing/book-reader';
import { FAST_SANDBOX, FAST_SANDBOX_TUNING, FAST_TUNING, FAULT_CASES, FLOW } from '../support/fault-cases';
import { runFault, waitFor } from '../support/fault-run';
import { Frame, StreamClient } from '../support/stream-client';
import { readTruth, setFlow, Truth } from '../support/truth';
import { LEASE_TTL_MS, ScaleStack } from './support/scale-stack';

interface SentTrade {
  id: string;
  price: string;
  amount: string;
  side: string;
  time: number;
}

/** A market that trades, followed on both replicas, to halt, to pause and to cross. */
const HELD_MARKET = 'eth_btc';

/**
 * Every fault of the sandbox's catalogue, driven as the single-process fault suites drive it (the
 * compiler insists on one for each): on while the market moves, then off.
 */
const FAULT_DRIVES: Record<FaultName, (sandbox: RunningSandbox) => Promise<void>> = {
  'drop-connections': FAULT_CASES['drop-connections: every connection cut and refused for a while'],
  // The hardest case of the two: no later delta reveals the gap, only the check against REST does.
  'skip-version': FAULT_CASES['skip-version: the last deltas lost before the market goes quiet'],
  'duplicate-deltas': FAULT_CASES['duplicate-deltas'],
  'reorder-deltas': FAULT_CASES['reorder-deltas'],
  'malformed-frame': FAULT_CASES['malformed-frame every 200 ms'],
  silence: FAULT_CASES['silence longer than the timeouts'],
  'rest-429': FAULT_CASES['rest-429 while gaps need re-syncing'],
  'rest-503': FAULT_CASES['rest-503 while gaps need re-syncing'],
  'trade-history-down': FAULT_CASES['trade-history-down while trades need backfilling'],
  'hub-close': FAULT_CASES['hub-close without allowReconnect'],
  'expire-sessions': FAULT_CASES['expire-sessions'],
  'halt-market': (sandbox) =>
    runFault(sandbox, 'halt-market', { flowRate: FLOW, onMs: 1_000, params: { instrument: HELD_MARKET } }),
  'pause-market': (sandbox) =>
    runFault(sandbox, 'pause-market', { flowRate: FLOW, onMs: 1_000, params: { instrument: HELD_MARKET } }),
  'stop-matching': (sandbox) =>
    runFault(sandbox, 'stop-matching', { flowRate: FLOW, onMs: 1_000, params: { instrument: HELD_MARKET } }),
  burst: FAULT_CASES['burst of 3000 book updates per second'],
};

/**
 * The faults that reach the readers each in their own way: a resync from REST (skip-version), new
 * upstream connections (drop-connections), a burst to keep up with, a crossed upstream book, and
 * trades to backfill. The others end in one of these; every one of them comes with
 * `CHAOS_EVERY_FAULT=1` (npm run chaos -- --only stream-replicas).
 */
const SUITE_FAULTS: readonly FaultName[] = [
  'drop-connections',
  'skip-version',
  'burst',
  'stop-matching',
  'trade-history-down',
];
const DRIVEN_FAULTS =
  process.env.CHAOS_EVERY_FAULT === '1'
    ? FAULT_NAMES
    : FAULT_NAMES.filter((fault) => SUITE_FAULTS.includes(fault));

/** One `book.{instrument}` channel as a client follows it, through resubscriptions and reconnections. */
class BookFollower {
  /** One reader per subscription: a new subscription starts from its own snapshot. */
  private readonly readers: BookReader[] = [new BookReader()];
  gaps = 0;
  snapshots = 0;
  updates = 0;
  resyncs = 0;

  constructor(readonly instrument: string) {}

  get channel(): string {
    return `book.${this.instrument}`;
  }

  get reader(): BookReader {
    return this.readers.at(-1)!;
  }

  /** Everything that left a reader broken, over every subscription so far. */
  get problems(): string[] {
    return this.readers.flatMap((reader) => reader.problems);
  }

  restart(): void {
    this.readers.push(new BookReader());
  }

  /** Applies a message; true when the client must resubscribe (it missed something or holds a wrong book). */
  read(message: BookChannelMessage): boolean {
    const outcome = this.reader.read(message);
    if (outcome === 'snapshot') this.snapshots++;
    if (outcome === 'update') this.updates++;
    if (outcome === 'resyncing') this.resyncs++;
    if (outcome === 'gap') this.gaps++;
    return outcome === 'gap' || outcome === 'bad-checksum' || outcome === 'unexpected';
  }

  /** Why the book held is not the truth; undefined when it is, at the truth's version. */
  differenceFrom(truth: Truth): string | undefined {
    const reader = this.reader;
    if (reader.state !== 'live') return `reader ${reader.state}`;
    if (reader.seq !== truth.version) return `reader at ${reader.seq}, truth at ${truth.version}`;
    const canonical = (side: 'bid' | 'ask') =>
      JSON.stringify(
        reader.levels(side).map(([price, amount]) => [canonicalDecimal(price), canonicalDecimal(amount)]),
      );
    if (canonical('bid') !== JSON.stringify(truth.bids)) return `bids differ at ${reader.seq}`;
    if (canonical('ask') !== JSON.stringify(truth.asks)) return `asks differ at ${reader.seq}`;
    return undefined;
  }
}

/** One `trades.{instrument}` channel: the trades each connection received. */
class TradesFollower {
  /** Per connection, every trade in the order received. */
  readonly lives: SentTrade[][] = [[]];
  resyncs = 0;

  constructor(readonly instrument: string) {}

  get channel(): string {
    return `trades.${this.instrument}`;
  }

  restart(): void {
    this.lives.push([]);
  }

  /** Ids received twice on one connection. */
  doubled(): string[] {
    return this.lives.flatMap((trades) => {
      const ids = trades.map((trade) => trade.id);
      return ids.filter((id, index) => ids.indexOf(id) !== index);
    });
  }
}

interface ConnectionEnd {
  readonly url: string;
  readonly code: number;
  readonly lastFrame?: Frame;
}

/**
 * A client of `/stream` on Node's own WebSocket, following some channels as the protocol asks: it
 * resubscribes a book channel on a gap or a wrong checksum, and when its connection closes it
 * connects to another API replica and subscribes again.
 */
class StreamReader {
  private client!: StreamClient;
  private applied = 0;
  private reconnecting = false;
  private stopped = false;
  url = '';
  connections = 0;
  readonly ends: ConnectionEnd[] = [];
  readonly errors: Frame[] = [];

  constructor(
    readonly name: string,
    private readonly replicaUrls: () => string[],
    readonly books: BookFollower[],
    readonly trades: TradesFollower[],
  ) {}

  get channels(): string[] {
    return [...this.books, ...this.trades].map((follower) => follower.channel);
  }

  async connect(url: string): Promise<void> {
    const client = new StreamClient(url);
    await client.opened;
    if (this.stopped) return client.close();
    if (this.connections > 0) for (const follower of [...this.books, ...this.trades]) follower.restart();
    this.client = client;
    this.url = url;
    this.applied = 0;
    this.connections++;
    client.send({ op: 'subscribe', channels: this.channels });
  }

  /** Applies every frame received since the last call; reconnects once the connection closed. */
  pump(): void {
    if (this.reconnecting || this.stopped || !this.client) return;
    const frames = this.client.frames;
    for (; this.applied < frames.length; this.applied++) this.apply(frames[this.applied]);
    if (this.client.closeCode !== undefined) {
      this.ends.push({ url: this.url, code: this.client.closeCode, lastFrame: frames.at(-1) });
      void this.reconnect();
    }
  }

  stop(): void {
    this.stopped = true;
    this.client?.close();
  }

  private apply(frame: Frame): void {
    if (frame.type === 'error') {
      this.errors.push(frame);
      return;
    }
    const book = this.books.find((follower) => follower.channel === frame.channel);
    if (book) {
      if (frame.type === 'unsubscribed') book.restart();
      else if (frame.type === 'snapshot' || frame.type === 'update' || frame.type === 'status') {
        if (book.read(frame as unknown as BookChannelMessage)) {
          this.client.send({ op: 'unsubscribe', channels: [book.channel] });
          this.client.send({ op: 'subscribe', channels: [book.channel] });
        }
      }
      return;
    }
    const trades = this.trades.find((follower) => follower.channel === frame.channel);
    if (trades && frame.type === 'trades') trades.lives.at(-1)!.push(...(frame.trades as SentTrade[]));
    if (trades && frame.type === 'status') trades.resyncs++;
  }

  private async reconnect(): Promise<void> {
    this.reconnecting = true;
    const left = this.url;
    while (!this.stopped) {
      const url = this.replicaUrls().find((candidate) => candidate !== left) ?? left;
      try {
        await this.connect(url);
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    this.reconnecting = false;
  }
}

/**
 * The sandbox, Redis, two ingest and two API replicas, each a process of the real build: readers of
 * `/stream` on both API replicas, applying every message, hold exactly the sandbox's books once the
 * market pauses, every checksum verified and `seq`/`prevSeq` continuous, after a steady flow, through
 * every sandbox fault, an ingest replica killed, Redis restarted and an API replica restarted.
 */
describe('the live stream on two ingest and two API replicas', () => {
  let stack: ScaleStack;
  let listed: string[];
  const readers: StreamReader[] = [];
  let pumping: NodeJS.Timeout | undefined;

  const runningApiUrls = () => stack.api.filter((replica) => !replica.exited).map((replica) => replica.url);
  const pumpAll = () => readers.forEach((reader) => reader.pump());

  async function startReader(
    name: string,
    url: string,
    books: string[],
    trades: string[],
  ): Promise<StreamReader> {
    const reader = new StreamReader(
      name,
      runningApiUrls,
      books.map((instrument) => new BookFollower(instrument)),
      trades.map((instrument) => new TradesFollower(instrument)),
    );
    readers.push(reader);
    await reader.connect(url);
    return reader;
  }

  /**
   * Pauses the market, waits until every reader holds the truth's book at its version, checks what
   * the readers received on the way, and lets the market move again.
   */
  async function expectReadersEqualTruth(timeoutMs = 30_000): Promise<void> {
    await setFlow(stack.sandbox, 0);
    const instruments = [
      ...new Set(
        readers.flatMap((reader) => [...reader.books, ...reader.trades].map((each) => each.instrument)),
      ),
    ];
    const truths = new Map<string, Truth>();
    let last = '';
    await waitFor(
      async () => {
        pumpAll();
        for (const instrument of instruments)
          truths.set(instrument, await readTruth(stack.sandbox, instrument));
        for (const reader of readers) {
          for (const book of reader.books) {
            const difference = book.differenceFrom(truths.get(book.instrument)!);
            if (difference !== undefined) {
              const errors = reader.errors.map((error) => error.code).join(', ') || 'none';
              last = `${reader.name} on ${reader.url}, ${book.channel}: ${difference} (errors: ${errors})`;
              return false;
            }
          }
        }
        return true;
      },
      'every reader equal to the truth',
      timeoutMs,
      100,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; ${last}`);
    });

    for (const reader of readers) {
      expect({ reader: reader.name, errors: reader.errors }).toEqual({ reader: reader.name, errors: [] });
      for (const book of reader.books) {
        // A connection's prevSeq always follows on from the seq it sent last, resyncing or not.
        expect({ channel: book.channel, problems: book.problems, gaps: book.gaps }).toEqual({
          channel: book.channel,
          problems: [],
          gaps: 0,
        });
      }
      for (const follower of reader.trades) {
        expect({ channel: follower.channel, doubled: follower.doubled() }).toEqual({
          channel: follower.channel,
          doubled: [],
        });
        const truth = new Map(truths.get(follower.instrument)!.trades.map((trade) => [trade.id, trade]));
        for (const trade of follower.lives.flat()) {
          expect({
            id: trade.id,
            price: canonicalDecimal(trade.price),
            amount: canonicalDecimal(trade.amount),
            side: trade.side,
            time: trade.time,
          }).toEqual(truth.get(trade.id));
        }
      }
    }
    report();
    await setFlow(stack.sandbox, FLOW);
  }

  /** What the readers received so far, printed after each phase when `SCALE_REPORT` is set. */
  function report(): void {
    if (!process.env.SCALE_REPORT) return;
    const books = readers.flatMap((reader) => reader.books);
    const sum = (count: (book: BookFollower) => number) =>
      books.reduce((total, book) => total + count(book), 0);
    const trades = readers.flatMap((reader) => reader.trades).flatMap((follower) => follower.lives.flat());
    process.stdout.write(
      `${expect.getState().currentTestName}: ${sum((book) => book.snapshots)} snapshots, ` +
        `${sum((book) => book.updates)} updates, ${sum((book) => book.resyncs)} resyncing, ` +
        `${trades.length} trades\n`,
    );
  }

  beforeAll(async () => {
    stack = await ScaleStack.start({
      ingest: 2,
      api: 2,
      sandbox: FAST_SANDBOX,
      sandboxTuning: FAST_SANDBOX_TUNING,
      ingestTuning: FAST_TUNING,
    });
    listed = await stack.untilOwned();
    const [first, second] = stack.api.map((replica) => replica.url);
    await waitFor(
      async () =>
        (await Promise.all([first, second].map((url) => fetch(`${url}/orderbook/btc_usdt`)))).every(
          (r) => r.ok,
        ),
      'books served by both API replicas',
      30_000,
      200,
    );
    await startReader('reader-1', first, ['btc_usdt', 'eth_btc', 'eth_usdt'], ['btc_usdt']);
    await startReader('reader-2', first, ['pepe_eth', 'usdc_usdt'], ['eth_btc']);
    await startReader('reader-3', second, ['btc_usdt', 'shib_usdt', 'sol_eur'], ['eth_usdt']);
    await startReader('reader-4', second, [HELD_MARKET, 'pepe_eth'], ['btc_usdt']);
    pumping = setInterval(pumpAll, 20);
  }, 120_000);
  afterAll(async () => {
    if (pumping) clearInterval(pumping);
    for (const reader of readers) reader.stop();
    await stack?.close();
  }, 30_000);

  it('gives readers on both replicas the books of the exchange while the market moves', async () => {
    await waitFor(
      () => readers.every((reader) => reader.books.every((book) => book.updates >= 5)),
      'updates on every book channel',
      20_000,
    );
    await waitFor(
      () => readers.every((reader) => reader.trades.every((follower) => follower.lives[0].length > 0)),
      'trades on every trades channel',
      20_000,
    );
    await expectReadersEqualTruth();
    for (const reader of readers) expect(reader.ends).toEqual([]);
  }, 60_000);

  it('covers every fault of the sandbox', () => {
    expect(Object.keys(FAULT_DRIVES).sort()).toEqual([...FAULT_NAMES].sort());
  });

  it.each(DRIVEN_FAULTS)(
    'keeps every reader equal to the exchange through %s',
    async (fault) => {
      await FAULT_DRIVES[fault](stack.sandbox);
      await expectReadersEqualTruth();
      for (const reader of readers) expect(reader.ends).toEqual([]);
    },
    45_000,
  );

  it('keeps every reader equal to the exchange when an ingest replica is killed', async () => {
    const [victim, survivor] = stack.ingest;
    const followed = new Set(readers.flatMap((reader) => reader.books.map((book) => book.instrument)));
    const leases = await stack.view.leases([...followed]);
    // Two replicas share the instruments out, so the victim feeds some of the followed books.
    expect([...leases.values()].map((lease) => lease?.owner)).toContain(victim.name);
    victim.signal('SIGKILL');
    await waitFor(
      async () => (await stack.view.exactlyOneLiveOwner(listed, [survivor])).ok,
      'every instrument owned by the survivor',
      LEASE_TTL_MS + 15_000,
      200,
    );
    await expectReadersEqualTruth();
    for (const reader of readers) expect(reader.ends).toEqual([]);
  }, 60_000);

  it('keeps every reader equal to the exchange when Redis restarts empty', async () => {
    const followers = readers.flatMap((reader) => [...reader.books, ...reader.trades]);
    const resyncsBefore = followers.map((follower) => follower.resyncs);
    await stack.redis.restart();
    await expectReadersEqualTruth();
    // Put back by the surviving ingest replica even when the killed one built it; else a replica
    // started now would know no market until the next refresh.
    await waitFor(async () => (await stack.listed()).length > 0, 'the catalogue stored again', 10_000, 100);
    for (const reader of readers) expect(reader.ends).toEqual([]);
    // The store was emptied: every channel said so, and each book started again from a snapshot.
    expect(followers.filter((follower, index) => follower.resyncs === resyncsBefore[index])).toEqual([]);
  }, 60_000);

  it('moves the readers of a restarting API replica to the other, which keeps them equal to the exchange', async () => {
    const leaving = stack.api[1];
    const staying = stack.api[0];
    const moved = readers.filter((reader) => reader.url === leaving.url);
    expect(moved.length).toBeGreaterThan(0);
    const restarting = stack.restartApi(1);
    await waitFor(
      () => moved.every((reader) => reader.connections === 2 && reader.url !== leaving.url),
      'the readers reconnected',
      20_000,
    );
    const restarted = await restarting;
    for (const reader of moved) {
      expect(reader.ends).toEqual([{ url: leaving.url, code: 1012, lastFrame: { type: 'shutdown' } }]);
      expect([staying.url, restarted.url]).toContain(reader.url);
    }
    await startReader('reader-5', restarted.url, ['btc_usdt', 'sol_eur'], ['eth_usdt']);
    await expectReadersEqualTruth();
    for (const reader of readers.filter((each) => !moved.includes(each))) expect(reader.ends).toEqual([]);
  }, 60_000);
});
