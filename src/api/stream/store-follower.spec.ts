import { ChangeNotice } from '../../store/state-store';
import { FollowedRead, StoreFollower } from './store-follower';

/** A store whose notices and resets the test sends, and a read the test settles one at a time. */
function setUp() {
  const listeners: { change?: (notice: ChangeNotice) => void; reset?: () => void } = {};
  const store = {
    onChange: (listener: (notice: ChangeNotice) => void) => {
      listeners.change = listener;
      return () => (listeners.change = undefined);
    },
    onReset: (listener: () => void) => {
      listeners.reset = listener;
      return () => (listeners.reset = undefined);
    },
  };
  const calls: string[] = [];
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const followed: FollowedRead = {
    wants: (notice) => notice.kind === 'instrument' && notice.instrument === 'btc_usdt',
    reset: () => void calls.push('reset'),
    read: () => {
      calls.push('read');
      return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
    },
    failed: () => void calls.push('failed'),
    recovered: () => void calls.push('recovered'),
  };
  const follower = new StoreFollower(store, followed);
  const notice = (instrument: string): ChangeNotice => ({
    kind: 'instrument',
    instrument,
    bookVersion: 1,
    tradesRevision: 0,
  });
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { listeners, calls, pending, follower, notice, settled };
}

describe('StoreFollower', () => {
  it('reads at the start and on each notice it wants, one read at a time, one more for notices during it', async () => {
    const { listeners, calls, pending, follower, notice, settled } = setUp();
    follower.start();
    expect(calls).toEqual(['read']);
    listeners.change?.(notice('eth_usdt'));
    listeners.change?.(notice('btc_usdt'));
    listeners.change?.(notice('btc_usdt'));
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
    const { listeners, calls, pending, follower, notice, settled } = setUp();
    follower.start();
    pending.shift()!.reject(new Error('down'));
    await settled();
    listeners.change?.(notice('btc_usdt'));
    pending.shift()!.reject(new Error('down'));
    await settled();
    listeners.change?.(notice('btc_usdt'));
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
    expect(listeners).toEqual({ change: undefined, reset: undefined });
    expect(follower.running).toBe(false);
  });
});
