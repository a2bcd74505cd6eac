import { EMPTY_STATS } from '../market/market-stats';
import { MemoryStateStore } from '../store/memory-state-store';
import { InstrumentWrite, WriteOutcome } from '../store/state-store';
import { StateWriter, WriteSource } from './state-writer';

/** A real in-memory store whose writes take `writeMs` each (and fail while `failing`), recording when each began and ended. */
class SlowStore extends MemoryStateStore {
  readonly writes: { start: number; end: number }[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Each write fails once its time has passed, as one that timed out. */
  failing = false;

  constructor(public writeMs: number) {
    super();
  }

  override async write(batch: readonly InstrumentWrite[]): Promise<WriteOutcome[]> {
    const start = Date.now();
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((resolve) => setTimeout(resolve, this.writeMs));
    this.inFlight--;
    this.writes.push({ start, end: Date.now() });
    if (this.failing) throw new Error('store timed out');
    return super.write(batch);
  }
}

/** An instrument that changes all the time: a new book version for every write. */
class ChangingInstrument implements WriteSource {
  version = 0;
  replaced = 0;

  takeWrite(): InstrumentWrite | undefined {
    this.version++;
    return {
      instrument: 'btc_usdt',
      replace: false,
      head: {
        instrument: 'btc_usdt',
        bookVersion: this.version,
        bookUpdatedAt: Date.now(),
        syncState: 'live',
        stats: EMPTY_STATS,
        tradesRevision: 0,
        tradeFeed: 'live',
        lastEventAt: Date.now(),
        confirmedAt: Date.now(),
      },
    };
  }

  replaceOnNextWrite(): void {
    this.replaced++;
  }
}

/** An instrument that changes only when told to, as a quiet market does. */
class QuietInstrument extends ChangingInstrument {
  private changed = false;
  /** How many times the writer looked for a change. */
  looks = 0;

  change(): void {
    this.changed = true;
  }

  override takeWrite(): InstrumentWrite | undefined {
    this.looks++;
    if (!this.changed) return undefined;
    this.changed = false;
    return super.takeWrite();
  }
}

/** An instrument with a whole book of `levels` levels a side to write once. */
class DeepBook extends ChangingInstrument {
  pending = true;

  constructor(
    readonly name: string,
    private readonly levels: number,
  ) {
    super();
  }

  override takeWrite(): InstrumentWrite | undefined {
    if (!this.pending) return undefined;
    this.pending = false;
    const write = super.takeWrite()!;
    const side = (from: number) =>
      Array.from({ length: this.levels }, (_, index): [string, string] => [String(from + index), '1']);
    return {
      ...write,
      instrument: this.name,
      head: { ...write.head, instrument: this.name },
      replace: true,
      levels: { bids: side(1), asks: side(1_000) },
    };
  }
}

/** A store that records which instruments each write carried. */
class RecordingStore extends MemoryStateStore {
  readonly batches: string[][] = [];

  override async write(batch: readonly InstrumentWrite[]): Promise<WriteOutcome[]> {
    this.batches.push(batch.map((write) => write.instrument));
    return super.write(batch);
  }
}

const quietEvents = { onWritten: () => undefined, onFailed: () => undefined, onFenced: () => undefined };

describe('StateWriter', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_700_000_000_000 }));
  afterEach(() => jest.useRealTimers());

  async function run(writeMs: number, intervalMs: number, forMs: number): Promise<SlowStore> {
    const store = new SlowStore(writeMs);
    const instrument = new ChangingInstrument();
    const writer = new StateWriter(store, () => [instrument], intervalMs, quietEvents);
    writer.start();
    await jest.advanceTimersByTimeAsync(forMs);
    const stopping = writer.stop();
    await jest.advanceTimersByTimeAsync(writeMs * 2);
    await stopping;
    return store;
  }

  it('starts writes one interval apart, however long each write takes within it', async () => {
    const store = await run(60, 100, 1_000);
    const gaps = store.writes.slice(1, 9).map((write, index) => write.start - store.writes[index].start);
    expect(gaps).toEqual(Array(8).fill(100));
  });

  it('follows a write slower than the interval at once, and never runs two at a time', async () => {
    const store = await run(150, 100, 1_500);
    const gaps = store.writes.slice(1, 8).map((write, index) => write.start - store.writes[index].end);
    // A zero-delay timer: the next write starts on the next turn of the event loop.
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(1);
    expect(gaps).toHaveLength(7);
    expect(store.maxInFlight).toBe(1);
  });

  it('waits a whole interval after a failed write, however long it took', async () => {
    const store = new SlowStore(150);
    store.failing = true;
    const instrument = new ChangingInstrument();
    const writer = new StateWriter(store, () => [instrument], 100, quietEvents);
    writer.start();
    await jest.advanceTimersByTimeAsync(1_000);
    store.failing = false;
    const stopping = writer.stop();
    await jest.advanceTimersByTimeAsync(300);
    await stopping;
    const gaps = store.writes.slice(1, 4).map((write, index) => write.start - store.writes[index].end);
    expect(gaps).toEqual([100, 100, 100]);
    expect(instrument.replaced).toBeGreaterThanOrEqual(3);
  });

  it('writes what changed once more when stopped, so that nothing received is left unwritten', async () => {
    const store = new SlowStore(10);
    const instrument = new ChangingInstrument();
    const writer = new StateWriter(store, () => [instrument], 100, quietEvents);
    writer.start();
    await jest.advanceTimersByTimeAsync(250);
    const stopping = writer.stop();
    await jest.advanceTimersByTimeAsync(50);
    await stopping;
    const heads = await store.readHeads(['btc_usdt']);
    expect(heads.get('btc_usdt')?.bookVersion).toBe(instrument.version);
  });

  it('spreads deep books over several writes within its budget, back to back, each instrument in turn', async () => {
    const store = new RecordingStore();
    // 21 entries each (a head and 10 levels a side): two fill a budget of 30.
    const books = ['a', 'b', 'c', 'd', 'e'].map((name) => new DeepBook(name, 10));
    const writer = new StateWriter(store, () => books, 100, quietEvents, 30);
    writer.start();
    await jest.advanceTimersByTimeAsync(150);
    expect(store.batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    books[0].pending = true;
    books[3].pending = true;
    await jest.advanceTimersByTimeAsync(100);
    expect(store.batches.slice(3)).toEqual([['a', 'd']]);
    await writer.stop();
  });

  it('writes every deep book when stopped, however many writes that takes', async () => {
    const store = new RecordingStore();
    const books = ['a', 'b', 'c'].map((name) => new DeepBook(name, 10));
    const writer = new StateWriter(store, () => books, 100, quietEvents, 1);
    await writer.stop();
    expect(store.batches).toEqual([['a'], ['b'], ['c']]);
  });

  describe('on a quiet market', () => {
    async function quietWriter(): Promise<{
      store: SlowStore;
      instrument: QuietInstrument;
      writer: StateWriter;
    }> {
      const store = new SlowStore(10);
      const instrument = new QuietInstrument();
      const writer = new StateWriter(store, () => [instrument], 100, quietEvents);
      writer.start();
      // Two flushes on the cadence, at 100 and 200 ms, find nothing.
      await jest.advanceTimersByTimeAsync(250);
      return { store, instrument, writer };
    }

    async function stop(writer: StateWriter): Promise<void> {
      const stopping = writer.stop();
      await jest.advanceTimersByTimeAsync(50);
      await stopping;
    }

    it('writes the change that ends a quiet spell a few milliseconds after it is applied', async () => {
      const { store, instrument, writer } = await quietWriter();
      instrument.change();
      const appliedAt = Date.now();
      writer.flushIfDue();
      await jest.advanceTimersByTimeAsync(20);
      expect(store.writes.map((write) => write.start - appliedAt)).toEqual([5]);
      await stop(writer);
    });

    it('keeps the cadence for the changes right after it', async () => {
      const { store, instrument, writer } = await quietWriter();
      const firstAt = Date.now();
      for (let step = 0; step < 15; step++) {
        instrument.change();
        writer.flushIfDue();
        await jest.advanceTimersByTimeAsync(10);
      }
      const starts = store.writes.map((write) => write.start - firstAt);
      expect(starts).toEqual([5, 105]);
      await stop(writer);
    });

    it('looks for changes at most once more per interval when messages change nothing', async () => {
      const { instrument, writer } = await quietWriter();
      const looksBefore = instrument.looks;
      for (let step = 0; step < 100; step++) {
        writer.flushIfDue();
        await jest.advanceTimersByTimeAsync(10);
      }
      // 1,000 ms: ten flushes on the cadence, and at most one early look after each.
      expect(instrument.looks - looksBefore).toBeLessThanOrEqual(20);
      expect(instrument.looks - looksBefore).toBeGreaterThanOrEqual(10);
      await stop(writer);
    });
  });

  describe('while the event loop is busy with incoming data', () => {
    const BUSY_MS = 400;

    /** Keeps the event loop busy for `ms`, as a long run of frames does, calling `between` between "messages". */
    function busy(ms: number, between: () => void): void {
      const until = Date.now() + ms;
      while (Date.now() < until) between();
    }

    /** When the first write began, from the writer's start, and whether it began within the busy stretch. */
    async function firstWrite(
      between: (writer: StateWriter) => void,
    ): Promise<{ start: number; duringBusy: boolean }> {
      jest.useRealTimers();
      const store = new SlowStore(10);
      const writer = new StateWriter(store, () => [new ChangingInstrument()], 100, quietEvents);
      // The first write is due an interval after the start, however late the busy stretch begins.
      const startedAt = Date.now();
      writer.start();
      busy(BUSY_MS, () => between(writer));
      // No timer can have run yet: a write in flight was started from within the busy stretch.
      const duringBusy = store.inFlight > 0;
      await writer.stop();
      return { start: store.writes[0].start - startedAt, duringBusy };
    }

    it('starts a due write between messages rather than when the loop is free again', async () => {
      const { start, duringBusy } = await firstWrite((writer) => writer.flushIfDue());
      expect(start).toBeGreaterThanOrEqual(99);
      expect(duringBusy).toBe(true);
    });

    it('would otherwise wait for the end of the busy stretch', async () => {
      const { start, duringBusy } = await firstWrite(() => undefined);
      expect(start).toBeGreaterThanOrEqual(BUSY_MS);
      expect(duringBusy).toBe(false);
    });
  });
});
