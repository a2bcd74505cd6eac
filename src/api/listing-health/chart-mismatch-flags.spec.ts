import { BackfillState } from '../../store/bar-archive';
import { ChartMismatchFlags, mismatchFlag, MISMATCH_FLAG_MS } from './chart-mismatch-flags';

const NOW = Date.UTC(2026, 0, 10, 12, 30);
const FOUND: BackfillState = {
  mismatchFoundAt: NOW - 30 * 60_000,
  mismatchFrom: Date.UTC(2026, 0, 9, 12),
  mismatchTo: Date.UTC(2026, 0, 10, 4),
  mismatchBars: 3,
};

describe('mismatchFlag', () => {
  it('names the bars and hours of a mismatch found within a day', () => {
    expect(mismatchFlag(FOUND, NOW)).toEqual({
      code: 'chart_bars_mismatch',
      message:
        "3 1-minute chart bars of 2026-01-09 12:00 UTC to 2026-01-10 04:00 UTC built from the gateway's trades differ from the exchange's candles (checked 30 min ago)",
    });
  });

  it('is gone a day after, and absent without a mismatch', () => {
    expect(mismatchFlag(FOUND, FOUND.mismatchFoundAt! + MISMATCH_FLAG_MS)).toBeUndefined();
    expect(mismatchFlag({ coveredFrom: 0, sealedThrough: NOW }, NOW)).toBeUndefined();
  });
});

describe('ChartMismatchFlags', () => {
  it('reads the states once per refresh interval and flags only the markets with a mismatch', async () => {
    const states = new Map<string, BackfillState>([
      ['btc_usdt', FOUND],
      ['eth_usdt', { sealedThrough: NOW }],
    ]);
    const readBackfill = jest.fn(async (instrument: string) => {
      if (instrument === 'bad_usdt') throw new Error('store down');
      return states.get(instrument) ?? {};
    });
    const flags = new ChartMismatchFlags({ readBackfill }, 60_000);
    const instruments = ['btc_usdt', 'eth_usdt', 'bad_usdt'];

    expect([...(await flags.flags(instruments, NOW)).keys()]).toEqual(['btc_usdt']);
    expect(readBackfill).toHaveBeenCalledTimes(3);

    states.set('eth_usdt', FOUND);
    expect([...(await flags.flags(instruments, NOW + 59_999)).keys()]).toEqual(['btc_usdt']);
    expect(readBackfill).toHaveBeenCalledTimes(3);

    // Past the interval the last states are served while new ones are read.
    expect([...(await flags.flags(instruments, NOW + 60_000)).keys()]).toEqual(['btc_usdt']);
    await new Promise((resolve) => setImmediate(resolve));
    expect([...(await flags.flags(instruments, NOW + 60_001)).keys()].sort()).toEqual([
      'btc_usdt',
      'eth_usdt',
    ]);
    expect(readBackfill).toHaveBeenCalledTimes(6);
  });
});
