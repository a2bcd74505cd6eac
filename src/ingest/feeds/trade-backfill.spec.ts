import { Trade } from '../../market/trade';
import { TradeBackfill, TradeRange } from './trade-backfill';

const trade = (id: number, time: number): Trade => ({
  id: String(id),
  instrument: 'btc_usdt',
  price: '1',
  amount: '1',
  side: 'buy',
  time,
});

/** A trade history whose answers the test settles one by one. */
class ScriptedHistory {
  readonly asked: TradeRange[] = [];
  private readonly answers: { resolve(trades: Trade[]): void; reject(error: Error): void }[] = [];

  fetch = (range: TradeRange): Promise<Trade[]> => {
    this.asked.push(range);
    return new Promise((resolve, reject) => this.answers.push({ resolve, reject }));
  };

  async answer(trades: Trade[]): Promise<void> {
    this.answers.shift()!.resolve(trades);
    await jest.advanceTimersByTimeAsync(0);
  }

  async fail(): Promise<void> {
    this.answers.shift()!.reject(new Error('the gateway connection closed'));
    await jest.advanceTimersByTimeAsync(0);
  }
}

describe('TradeBackfill', () => {
  let history: ScriptedHistory;
  let delivered: Trade[];
  let failures: number;
  let backfill: TradeBackfill;

  beforeEach(() => {
    jest.useFakeTimers();
    history = new ScriptedHistory();
    delivered = [];
    failures = 0;
    backfill = new TradeBackfill({
      fetch: history.fetch,
      deliver: (trades) => delivered.push(...trades),
      onFailed: () => failures++,
      retry: { initialDelayMs: 1_000, maxDelayMs: 8_000 },
    });
  });
  afterEach(() => {
    backfill.close();
    jest.useRealTimers();
  });

  it('fetches a missed range and delivers its trades', async () => {
    backfill.request({ from: 100, to: 200 });
    expect(history.asked).toEqual([{ from: 100, to: 200 }]);
    await history.answer([trade(1, 150)]);
    expect(delivered.map((t) => t.id)).toEqual(['1']);
    expect(backfill.pending).toBeUndefined();
  });

  it('keeps a range owed through failed fetches and fetches it again until it arrives', async () => {
    backfill.request({ from: 100, to: 200 });
    await history.fail();
    expect(failures).toBe(1);
    expect(backfill.pending).toEqual({ from: 100, to: 200 });
    // The backoff waits between half its ceiling and the ceiling.
    await jest.advanceTimersByTimeAsync(499);
    expect(history.asked).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(501);
    expect(history.asked).toHaveLength(2);
    await history.fail();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(history.asked).toEqual([
      { from: 100, to: 200 },
      { from: 100, to: 200 },
      { from: 100, to: 200 },
    ]);
    await history.answer([trade(1, 150)]);
    expect(delivered).toHaveLength(1);
    expect(backfill.pending).toBeUndefined();
  });

  it('merges a range asked for while an earlier one is owed, and fetches the union at once', async () => {
    backfill.request({ from: 100, to: 200 });
    await history.fail();
    // The next subscription's snapshot starts after trades that arrived meanwhile: a second gap.
    backfill.request({ from: 300, to: 400 });
    expect(history.asked[1]).toEqual({ from: 100, to: 400 });
    await history.answer([trade(1, 150), trade(2, 350)]);
    expect(delivered.map((t) => t.id)).toEqual(['1', '2']);
    expect(backfill.pending).toBeUndefined();
  });

  it('fetches a range asked for during a fetch after it', async () => {
    backfill.request({ from: 100, to: 200 });
    backfill.request({ from: 300, to: 400 });
    expect(history.asked).toHaveLength(1);
    await history.answer([trade(1, 150)]);
    expect(history.asked[1]).toEqual({ from: 100, to: 400 });
    await history.answer([trade(1, 150), trade(2, 350)]);
    expect(backfill.pending).toBeUndefined();
  });

  it('stops retrying when closed', async () => {
    backfill.request({ from: 100, to: 200 });
    await history.fail();
    backfill.close();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(history.asked).toHaveLength(1);
  });
});
