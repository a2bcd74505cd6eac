import { FollowedRead, StoreFollower } from './store-follower';

/** A store whose resets the test sends, and a read the test settles one at a time. */
function setUp() {
  const listeners: { reset?: () => void } = {};
  const store = {
    onReset: (listener: () => void) => {
      listeners.reset = listener;
      return () => (listeners.reset = undefined);
    },
  };
  const calls: string[] = [];
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const followed: FollowedRead = {
    reset: () => void calls.push('reset'),
    read: () => {
      calls.push('read');
      return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
    },
    failed: () => void calls.push('failed'),
    recovered: () => void calls.push('recovered'),
  };
  const follower = new StoreFollower(store, followed);
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { listeners, calls, pending, follower, settled };
}

describe('StoreFollower', () => {
  it('reads at the start and on each refresh, one read at a time, one more for refreshes during it', async () => {
    const { calls, pending, follower, settled } = setUp();
    follower.refresh();
    expect(calls).toEqual([]);
    follower.start();
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
    const { calls, pending, follower, settled } = setUp();
    follower.start();
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
    const { listeners, calls, pending, follower, settled } = setUp();
    follower.start();
    pending.shift()!.resolve();
    await settled();
    listeners.reset?.();
    expect(calls).toEqual(['read', 'reset', 'read']);
    follower.stop();
    expect(listeners).toEqual({ reset: undefined });
    expect(follower.running).toBe(false);
  });
});
