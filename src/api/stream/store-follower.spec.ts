import { InstrumentChange } from '../../store/state-store';
import { FollowedRead, StoreFollower } from './store-follower';

/**
 * A store whose resets and writes the test sends, whose subscription is in place when the test says,
 * and a read the test settles one at a time.
 */
function setUp() {
  const listeners: { reset?: () => void; change?: (change: InstrumentChange) => void } = {};
  let subscribed = (): void => undefined;
  const store = {
    onReset: (listener: () => void) => {
      listeners.reset = listener;
      return () => (listeners.reset = undefined);
    },
    followInstrument: (_: string, listener: (change: InstrumentChange) => void) => {
      listeners.change = listener;
      return {
        ready: new Promise<void>((resolve) => (subscribed = resolve)),
        close: () => (listeners.change = undefined),
      };
    },
  };
  const calls: string[] = [];
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const followed: FollowedRead = {
    change: (change) => void calls.push(`change ${change.head.bookVersion}`),
    reset: () => void calls.push('reset'),
    read: () => {
      calls.push('read');
      return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
    },
    failed: () => void calls.push('failed'),
    recovered: () => void calls.push('recovered'),
  };
  const follower = new StoreFollower(store, 'btc_usdt', followed);
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
  /** Starts the follower with its subscription in place at once. */
  const start = async () => {
    follower.start();
    subscribed();
    await settled();
  };
  return { listeners, calls, pending, follower, settled, start, subscribed: () => subscribed() };
}

describe('StoreFollower', () => {
  it('reads at the start and on each refresh, one read at a time, one more for refreshes during it', async () => {
    const { calls, pending, follower, settled, start } = setUp();
    follower.refresh();
    expect(calls).toEqual([]);
    await start();
    expect(calls).toEqual(['read']);
    follower.refresh();
    follower.refresh();
    expect(calls).toEqual(['read']);
    pending.shift()!.resolve();
    await settled();
    expect(calls).toEqual(['read', 'read']);
    pending.shift()!.resolve();
    await settled();
    expect(calls).toEqual(['read', 'read']);
    follower.stop();
  });

  it('tells a failure once per spell and the recovery after it', async () => {
    const { calls, pending, follower, settled, start } = setUp();
    await start();
    pending.shift()!.reject(new Error('down'));
    await settled();
    follower.refresh();
    pending.shift()!.reject(new Error('down'));
    await settled();
    follower.refresh();
    pending.shift()!.resolve();
    await settled();
    expect(calls).toEqual(['read', 'failed', 'read', 'read', 'recovered']);
    follower.stop();
  });

  it('reads after a reset, and hears nothing once stopped', async () => {
    const { listeners, calls, pending, follower, settled, start } = setUp();
    await start();
    pending.shift()!.resolve();
    await settled();
    listeners.reset?.();
    expect(calls).toEqual(['read', 'reset', 'read']);
    follower.stop();
    expect(listeners).toEqual({ reset: undefined, change: undefined });
    expect(follower.running).toBe(false);
  });

  it('hands on each write, and reads first once the writes reach it', async () => {
    const { listeners, calls, follower, settled, subscribed } = setUp();
    follower.start();
    await settled();
    expect(calls).toEqual([]);
    listeners.change?.({ head: { bookVersion: 4 } } as InstrumentChange);
    subscribed();
    await settled();
    expect(calls).toEqual(['change 4', 'read']);
    follower.stop();
  });

  it('hands on the writes that come during a read after it', async () => {
    const { listeners, calls, pending, follower, settled, start } = setUp();
    await start();
    listeners.change?.({ head: { bookVersion: 5 } } as InstrumentChange);
    expect(calls).toEqual(['read']);
    pending.shift()!.resolve();
    await settled();
    expect(calls).toEqual(['read', 'change 5']);
    follower.stop();
  });

  it('rechecks on time when the wall clock steps back', async () => {
    jest.useFakeTimers();
    try {
      const { calls, pending, follower, subscribed } = setUp();
      follower.start();
      subscribed();
      await jest.advanceTimersByTimeAsync(0);
      pending.shift()!.resolve();
      jest.setSystemTime(Date.now() - 120_000);
      await jest.advanceTimersByTimeAsync(5_000);
      expect(calls).toEqual(['read', 'read']);
      follower.stop();
    } finally {
      jest.useRealTimers();
    }
  });
});
