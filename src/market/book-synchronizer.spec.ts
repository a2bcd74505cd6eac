import fc from 'fast-check';
import { BookMessage, LevelUpdate } from './book-update';
import { BookSynchronizer, BookSyncOptions } from './book-synchronizer';
import { OrderBook } from './order-book';

const INSTRUMENT = 'btc_usdt';
const bid = (price: string, amount: string): LevelUpdate => ({ side: 'bid', price, amount });
const ask = (price: string, amount: string): LevelUpdate => ({ side: 'ask', price, amount });
const snapshot = (version: number, updates: LevelUpdate[] = [], time = version): BookMessage => ({
  instrument: INSTRUMENT,
  version,
  snapshot: true,
  updates,
  time,
});
const delta = (version: number, updates: LevelUpdate[] = [], time = version): BookMessage => ({
  instrument: INSTRUMENT,
  version,
  snapshot: false,
  updates,
  time,
});
/** A delta that records its version as the amount of bid level 1, so the applied order shows in the book. */
const marked = (version: number): BookMessage => delta(version, [bid('1', `${version}`)]);

const BASE = [bid('100', '1'), bid('99', '2'), ask('101', '3'), ask('102', '4')];

function liveAt(version: number, options: BookSyncOptions = {}, now = 0): BookSynchronizer {
  const sync = new BookSynchronizer(INSTRUMENT, now, options);
  sync.onStreamMessage(snapshot(version, BASE), now);
  while (sync.loadPending) sync.continueLoad(now);
  expect(sync.state).toBe('live');
  return sync;
}

describe('BookSynchronizer', () => {
  describe('syncing', () => {
    it('waits for the stream snapshot, then asks for a REST snapshot and repeats the request when it is late', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 1000, { snapshotWaitMs: 500, snapshotRetryMs: 2000 });
      expect(sync.state).toBe('syncing');
      expect(sync.tick(1499)).toMatchObject({ action: 'none', reason: 'idle', state: 'syncing' });
      expect(sync.tick(1500)).toMatchObject({ action: 'request-snapshot', reason: 'awaiting-snapshot' });
      expect(sync.tick(3499).action).toBe('none');
      expect(sync.tick(3500).action).toBe('request-snapshot');
      expect(sync.counters.snapshotRequests).toBe(2);
    });

    it('waits for the stream snapshot from the time the stream was opened, not from its creation', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0, { snapshotWaitMs: 500 });
      sync.streamOpened(4000);
      expect(sync.tick(4499).action).toBe('none');
      expect(sync.tick(4500)).toMatchObject({ action: 'request-snapshot', reason: 'awaiting-snapshot' });
      const live = liveAt(10, { snapshotWaitMs: 500 });
      live.streamOpened(100);
      expect(live.tick(10_000)).toMatchObject({ action: 'none', state: 'live' });
    });

    it('goes live on a stream snapshot', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0);
      const outcome = sync.onStreamMessage(snapshot(10, BASE, 777), 5);
      expect(outcome).toEqual({ action: 'none', reason: 'snapshot', state: 'live', bookChanged: true });
      expect(sync.book.version).toBe(10);
      expect(sync.book.updatedAt).toBe(777);
      expect(sync.book.best('bid')).toEqual(['100', '1']);
      expect(sync.book.best('ask')).toEqual(['101', '3']);
      expect(sync.stateSince).toBe(5);
      expect(sync.tick(100_000).action).toBe('none');
    });

    it('asks for a snapshot at once when the stream starts with a delta, and only once', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0, { snapshotWaitMs: 1000 });
      expect(sync.onStreamMessage(marked(11), 1)).toMatchObject({
        action: 'request-snapshot',
        reason: 'awaiting-snapshot',
        state: 'syncing',
        bookChanged: false,
      });
      expect(sync.onStreamMessage(marked(12), 2)).toMatchObject({ action: 'none', reason: 'buffered' });
      expect(sync.waitingDeltas).toBe(2);
    });

    it('applies the buffered deltas newer than a stream snapshot in version order', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0);
      for (const version of [12, 9, 11, 10]) sync.onStreamMessage(marked(version), 0);
      const outcome = sync.onStreamMessage(snapshot(10, BASE), 0);
      expect(outcome).toMatchObject({ reason: 'snapshot', state: 'live', bookChanged: true });
      expect(sync.book.version).toBe(12);
      expect(sync.book.amount('bid', '1')).toBe('12');
      expect(sync.counters).toMatchObject({ snapshots: 1, applied: 2, superseded: 2 });
      expect(sync.waitingDeltas).toBe(0);
    });

    it('replays more buffered deltas than the reorder window holds, whatever order they came in', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0, { reorderWindowSize: 4 });
      for (let version = 60; version > 10; version--) sync.onStreamMessage(marked(version), 0);
      expect(sync.onStreamMessage(snapshot(10, BASE), 0).state).toBe('live');
      expect(sync.book.version).toBe(60);
      expect(sync.counters).toMatchObject({ applied: 50, gaps: 0 });
    });

    it('drops a buffered delta received twice', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0);
      sync.onStreamMessage(marked(5), 0);
      expect(sync.onStreamMessage(marked(5), 0).reason).toBe('stale');
      expect(sync.counters.stale).toBe(1);
    });

    it('builds on a REST snapshot that the buffered deltas continue', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0);
      for (const version of [10, 11, 12]) sync.onStreamMessage(marked(version), 0);
      expect(sync.onRestSnapshot(snapshot(10, BASE), 0)).toMatchObject({
        action: 'none',
        reason: 'snapshot',
        state: 'live',
        bookChanged: true,
      });
      expect(sync.book.version).toBe(12);
      expect(sync.book.amount('bid', '1')).toBe('12');
    });

    it('ignores a REST snapshot older than the first buffered delta, and asks again later', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0, { snapshotRetryMs: 1000 });
      sync.onStreamMessage(marked(10), 0);
      sync.onStreamMessage(marked(11), 0);
      const outcome = sync.onRestSnapshot(snapshot(8, BASE), 10);
      expect(outcome).toMatchObject({ action: 'none', reason: 'snapshot-ignored', state: 'syncing' });
      expect(outcome.detail).toContain('10');
      expect(sync.counters.snapshotsIgnored).toBe(1);
      expect(sync.tick(1000).action).toBe('request-snapshot');
      expect(sync.onRestSnapshot(snapshot(9, BASE), 1100)).toMatchObject({
        reason: 'snapshot',
        state: 'live',
      });
      expect(sync.book.version).toBe(11);
    });

    it('goes live on a REST snapshot when nothing was buffered', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0);
      expect(sync.onRestSnapshot(snapshot(3, BASE), 0).state).toBe('live');
      expect(sync.onStreamMessage(marked(4), 0).reason).toBe('applied');
    });

    it('drops the oldest half of the buffer when it overflows and resyncs', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0, { maxBufferedMessages: 4 });
      for (const version of [1, 2, 3, 4]) sync.onStreamMessage(marked(version), 0);
      const outcome = sync.onStreamMessage(marked(5), 0);
      expect(outcome).toMatchObject({
        action: 'request-snapshot',
        reason: 'buffer-overflow',
        state: 'resync',
      });
      expect(sync.counters).toMatchObject({ bufferOverflows: 1, resyncs: 1 });
      expect(sync.waitingDeltas).toBe(2);
      // Deltas 4 and 5 were kept: a snapshot at 3 connects, one at 2 no longer does.
      expect(sync.onRestSnapshot(snapshot(2, BASE), 0).reason).toBe('snapshot-ignored');
      sync.onRestSnapshot(snapshot(3, BASE), 0);
      expect(sync.state).toBe('live');
      expect(sync.book.amount('bid', '1')).toBe('5');
    });
  });

  describe('live deltas', () => {
    it('applies the next version and stamps the book', () => {
      const sync = liveAt(10);
      const outcome = sync.onStreamMessage(delta(11, [bid('100', '0'), ask('101', '5')], 1234), 0);
      expect(outcome).toEqual({ action: 'none', reason: 'applied', state: 'live', bookChanged: true });
      expect(sync.book.version).toBe(11);
      expect(sync.book.updatedAt).toBe(1234);
      expect(sync.book.best('bid')).toEqual(['99', '2']);
      expect(sync.book.best('ask')).toEqual(['101', '5']);
      expect(sync.counters.applied).toBe(1);
    });

    it('drops duplicates and older versions', () => {
      const sync = liveAt(10);
      sync.onStreamMessage(marked(11), 0);
      expect(sync.onStreamMessage(marked(11), 0)).toMatchObject({ reason: 'stale', bookChanged: false });
      expect(sync.onStreamMessage(marked(7), 0).reason).toBe('stale');
      expect(sync.counters.stale).toBe(2);
      expect(sync.book.amount('bid', '1')).toBe('11');
    });

    it('holds a delta ahead of a missing version and applies both in order when it arrives', () => {
      const sync = liveAt(10);
      expect(sync.onStreamMessage(marked(12), 0)).toMatchObject({ reason: 'held', bookChanged: false });
      expect(sync.onStreamMessage(marked(12), 0).reason).toBe('stale');
      expect(sync.onStreamMessage(marked(11), 50)).toMatchObject({ reason: 'applied', bookChanged: true });
      expect(sync.book.version).toBe(12);
      expect(sync.book.amount('bid', '1')).toBe('12');
      expect(sync.waitingDeltas).toBe(0);
    });

    it('reports a gap when more deltas wait than the window holds', () => {
      const sync = liveAt(10, { reorderWindowSize: 3 });
      for (const version of [12, 13, 14])
        expect(sync.onStreamMessage(marked(version), 0).reason).toBe('held');
      const outcome = sync.onStreamMessage(marked(15), 0);
      expect(outcome).toMatchObject({ action: 'request-snapshot', reason: 'gap', state: 'resync' });
      expect(outcome.detail).toContain('11');
      expect(sync.counters).toMatchObject({ gaps: 1, resyncs: 1, snapshotRequests: 1 });
      expect(sync.book.version).toBe(10);
    });

    it('reports a gap when a missing version is waited for longer than the window time', () => {
      const sync = liveAt(10, { reorderWindowMs: 100 });
      sync.onStreamMessage(marked(12), 1000);
      sync.onStreamMessage(marked(13), 1050);
      expect(sync.tick(1099).state).toBe('live');
      expect(sync.tick(1100)).toMatchObject({ action: 'request-snapshot', reason: 'gap', state: 'resync' });
    });

    it('still applies a missing version that arrives late, before any tick noticed the wait', () => {
      const sync = liveAt(10, { reorderWindowMs: 100 });
      sync.onStreamMessage(marked(12), 1000);
      expect(sync.onStreamMessage(marked(11), 1500)).toMatchObject({ reason: 'applied', state: 'live' });
      expect(sync.book.version).toBe(12);
    });

    it('resumes from a REST snapshot that the held deltas continue after a gap', () => {
      const sync = liveAt(10, { reorderWindowSize: 2 });
      for (const version of [12, 13, 14]) sync.onStreamMessage(marked(version), 0);
      expect(sync.state).toBe('resync');
      sync.onStreamMessage(marked(15), 0);
      expect(sync.onRestSnapshot(snapshot(9, BASE), 0).reason).toBe('snapshot-ignored');
      expect(sync.onRestSnapshot(snapshot(11, BASE), 0)).toMatchObject({ reason: 'snapshot', state: 'live' });
      expect(sync.book.version).toBe(15);
      expect(sync.book.amount('bid', '1')).toBe('15');
    });

    it('resyncs when a delta crosses the book', () => {
      const sync = liveAt(10);
      const outcome = sync.onStreamMessage(delta(11, [bid('101.5', '1')]), 0);
      expect(outcome).toMatchObject({
        action: 'request-snapshot',
        reason: 'crossed',
        state: 'resync',
        bookChanged: true,
      });
      expect(outcome.detail).toContain('101.5');
      expect(sync.counters).toMatchObject({ crossed: 1, resyncs: 1 });
      // Deltas keep arriving and wait for the snapshot.
      expect(sync.onStreamMessage(marked(12), 0).reason).toBe('buffered');
      expect(sync.onRestSnapshot(snapshot(11, BASE), 0).state).toBe('live');
      expect(sync.book.isCrossed()).toBe(false);
      expect(sync.book.version).toBe(12);
    });

    it('resyncs on a crossed snapshot and asks for the next one only after a delay', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0);
      expect(sync.onStreamMessage(snapshot(5, [bid('10', '1'), ask('9', '1')]), 0)).toMatchObject({
        reason: 'crossed',
        state: 'resync',
        action: 'none',
      });
      expect(sync.tick(999).action).toBe('none');
      expect(sync.tick(1000)).toMatchObject({ action: 'request-snapshot', state: 'resync' });
    });

    describe('with a crossed exchange book', () => {
      const CROSSED = [bid('101', '1'), ask('100', '1')];

      /** Times at which the synchronizer asks for a snapshot, each answered at once with `answer(time)`. */
      function requests(
        sync: BookSynchronizer,
        until: number,
        answer: (now: number) => BookMessage,
      ): number[] {
        const asked: number[] = [];
        for (let now = 0; now <= until; now += 10) {
          const outcome = sync.tick(now);
          if (outcome.action === 'none') continue;
          asked.push(now);
          sync.onRestSnapshot(answer(now), now);
        }
        return asked;
      }

      it.each(['request-snapshot', 'reopen-stream'] as const)(
        'backs off from 1 s doubling up to snapshotRetryMs instead of asking again at once (%s)',
        (recovery) => {
          const sync = liveAt(10, { recovery });
          // The delta that crosses might be a copy gone wrong: the first snapshot is asked for at once.
          const first = sync.onStreamMessage(delta(11, [bid('101.5', '1')]), 0);
          expect(first.action).toBe(recovery);
          expect(sync.onRestSnapshot(snapshot(11, CROSSED), 0)).toMatchObject({
            reason: 'crossed',
            state: 'resync',
            action: 'none',
          });
          // Deltas keep coming and wait: they do not bring the next snapshot forward.
          for (let version = 12; version < 20; version++)
            expect(sync.onStreamMessage(delta(version, [ask('110', `${version}`)]), 5).action).toBe('none');

          const asked = requests(sync, 30_000, (now) => snapshot(20 + now, CROSSED));
          expect(asked).toEqual([1000, 3000, 7000, 12000, 17000, 22000, 27000]);
          expect(sync.state).toBe('resync');
          expect(sync.book.isCrossed()).toBe(true);
        },
      );

      it('goes live from the first snapshot that is no longer crossed, and backs off from 1 s again later', () => {
        const sync = new BookSynchronizer(INSTRUMENT, 0);
        sync.onStreamMessage(snapshot(5, CROSSED), 0);
        expect(requests(sync, 3500, (now) => snapshot(5 + now, CROSSED))).toEqual([1000, 3000]);
        sync.onStreamMessage(delta(4000, [bid('101', '0')]), 3600);
        expect(sync.onRestSnapshot(snapshot(4000, [bid('99', '1'), ask('100', '1')]), 7000)).toMatchObject({
          state: 'live',
          reason: 'snapshot',
        });
        expect(sync.book.isCrossed()).toBe(false);

        sync.onStreamMessage(snapshot(5000, CROSSED), 8000);
        expect(sync.tick(8999).action).toBe('none');
        expect(sync.tick(9000).action).toBe('request-snapshot');
      });
    });

    it('replaces the book on a stream snapshot while live and keeps the held deltas newer than it', () => {
      const sync = liveAt(10);
      sync.onStreamMessage(marked(13), 0);
      sync.onStreamMessage(marked(21), 0);
      expect(sync.onStreamMessage(snapshot(20, [bid('50', '1')]), 0).reason).toBe('snapshot');
      expect(sync.book.version).toBe(21);
      expect(sync.book.levels('bid')).toEqual([
        ['50', '1'],
        ['1', '21'],
      ]);
      expect(sync.book.size('ask')).toBe(0);
    });

    it('asks to reopen the stream instead when configured so', () => {
      const sync = liveAt(10, { reorderWindowSize: 1, recovery: 'reopen-stream' });
      sync.onStreamMessage(marked(12), 0);
      expect(sync.onStreamMessage(marked(13), 0)).toMatchObject({ action: 'reopen-stream', reason: 'gap' });
      expect(sync.counters).toMatchObject({ streamReopens: 1, snapshotRequests: 0 });
    });
  });

  describe('versions that skip', () => {
    it('accepts jumps and drops only regressions', () => {
      const sync = liveAt(10, { contiguousVersions: false });
      expect(sync.onStreamMessage(marked(15), 0).reason).toBe('applied');
      expect(sync.onStreamMessage(marked(40), 0).reason).toBe('applied');
      expect(sync.onStreamMessage(marked(39), 0).reason).toBe('stale');
      expect(sync.onStreamMessage(marked(40), 0).reason).toBe('stale');
      expect(sync.book.amount('bid', '1')).toBe('40');
      expect(sync.counters).toMatchObject({ applied: 2, stale: 2, gaps: 0 });
      expect(sync.tick(100_000).state).toBe('live');
    });

    it('builds on a REST snapshot even when the buffered deltas jump past it', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0, { contiguousVersions: false });
      sync.onStreamMessage(marked(20), 0);
      sync.onStreamMessage(marked(30), 0);
      sync.onStreamMessage(marked(5), 0);
      expect(sync.onRestSnapshot(snapshot(10, BASE), 0).state).toBe('live');
      expect(sync.book.version).toBe(30);
      expect(sync.book.amount('bid', '1')).toBe('30');
    });
  });

  describe('time', () => {
    it('waits on time while not live, while a version is missing and while a check is pending', () => {
      expect(new BookSynchronizer(INSTRUMENT, 0).waitsOnTime).toBe(true);
      const sync = liveAt(10, { reorderWindowMs: 100, verifyWaitMs: 100 });
      expect(sync.waitsOnTime).toBe(false);
      sync.onStreamMessage(marked(12), 0);
      expect(sync.waitsOnTime).toBe(true);
      sync.onStreamMessage(marked(11), 0);
      expect(sync.waitsOnTime).toBe(false);
      sync.onRestSnapshot(snapshot(13, BASE), 0);
      expect(sync.waitsOnTime).toBe(true);
      // Healed from the pending snapshot itself.
      expect(sync.tick(100)).toMatchObject({ reason: 'gap', state: 'live' });
      expect(sync.book.version).toBe(13);
      expect(sync.waitsOnTime).toBe(false);
    });

    it('changes nothing on a tick while it waits on nothing', () => {
      const sync = liveAt(10, { reorderWindowMs: 100, verifyWaitMs: 100 });
      sync.onStreamMessage(marked(11), 0);
      expect(sync.waitsOnTime).toBe(false);
      const counters = sync.counters;
      expect(sync.tick(1e9)).toEqual({ action: 'none', reason: 'idle', state: 'live', bookChanged: false });
      expect(sync.counters).toEqual(counters);
      expect(sync.book.version).toBe(11);
    });
  });

  describe('verification against REST snapshots', () => {
    it('passes when a snapshot of the same version matches', () => {
      const sync = liveAt(10);
      expect(sync.onRestSnapshot(snapshot(10, [...BASE].reverse()), 0)).toEqual({
        action: 'none',
        reason: 'verified',
        state: 'live',
        bookChanged: false,
      });
      expect(sync.counters.verificationsPassed).toBe(1);
    });

    it('fails on a mismatch, resyncs and rebuilds from the snapshot of that version', () => {
      const sync = liveAt(10);
      sync.onStreamMessage(delta(11, [bid('98', '7')]), 0);
      const outcome = sync.onRestSnapshot(snapshot(11, BASE), 0);
      expect(outcome).toMatchObject({
        action: 'none',
        reason: 'verify-failed',
        state: 'live',
        bookChanged: true,
      });
      expect(outcome.detail).toContain('98');
      expect(sync.counters).toMatchObject({ verificationsFailed: 1, resyncs: 1 });
      expect(sync.book.amount('bid', '98')).toBeUndefined();
      expect(sync.book.version).toBe(11);
      expect(sync.onStreamMessage(marked(12), 0).reason).toBe('applied');
    });

    it('cannot tell from a snapshot behind the book', () => {
      const sync = liveAt(10);
      sync.onStreamMessage(marked(11), 0);
      expect(sync.onRestSnapshot(snapshot(10, []), 0)).toMatchObject({
        reason: 'verify-inconclusive',
        state: 'live',
      });
      expect(sync.counters).toMatchObject({ verificationsInconclusive: 1, verificationsFailed: 0 });
    });

    it('keeps a snapshot ahead of the book and compares it when the book gets there', () => {
      const sync = liveAt(10);
      expect(sync.onRestSnapshot(snapshot(12, [...BASE, bid('1', '12')]), 0).reason).toBe('verify-pending');
      sync.onStreamMessage(marked(11), 0);
      expect(sync.counters.verificationsPassed).toBe(0);
      sync.onStreamMessage(marked(12), 0);
      expect(sync.counters.verificationsPassed).toBe(1);
    });

    it('fails a pending check when the book reaches its version with other levels', () => {
      const sync = liveAt(10);
      sync.onRestSnapshot(snapshot(11, [...BASE, bid('1', '999')]), 0);
      const outcome = sync.onStreamMessage(marked(11), 0);
      expect(outcome).toMatchObject({ reason: 'verify-failed', state: 'live' });
      expect(sync.book.amount('bid', '1')).toBe('999');
    });

    it('gives up a pending check the book jumps past', () => {
      const sync = liveAt(10, { contiguousVersions: false });
      sync.onRestSnapshot(snapshot(12, BASE), 0);
      sync.onStreamMessage(marked(15), 0);
      expect(sync.counters).toMatchObject({ verificationsInconclusive: 1, verificationsPassed: 0 });
    });

    it('counts a book left behind a pending snapshot as a gap and rebuilds from that snapshot', () => {
      const sync = liveAt(10, { verifyWaitMs: 1000 });
      expect(sync.onRestSnapshot(snapshot(12, [...BASE, bid('1', '12')]), 0).reason).toBe('verify-pending');
      sync.onStreamMessage(marked(11), 100);
      // A second check ahead of the book does not restart the wait.
      expect(sync.onRestSnapshot(snapshot(12, [...BASE, bid('1', '12')]), 500).reason).toBe('verify-pending');
      expect(sync.tick(999)).toMatchObject({ reason: 'idle', state: 'live', bookChanged: false });
      const outcome = sync.tick(1000);
      expect(outcome).toMatchObject({ action: 'none', reason: 'gap', state: 'live', bookChanged: true });
      expect(outcome.detail).toContain('version 11');
      expect(sync.book.version).toBe(12);
      expect(sync.book.amount('bid', '1')).toBe('12');
      expect(sync.counters).toMatchObject({ gaps: 1, resyncs: 1 });
      expect(sync.resyncCount).toBe(1);
      expect(sync.onStreamMessage(marked(13), 1001).reason).toBe('applied');
    });

    it('forgets the wait once the book reaches the pending version', () => {
      const sync = liveAt(10, { verifyWaitMs: 1000 });
      sync.onRestSnapshot(snapshot(11, [...BASE, bid('1', '11')]), 0);
      sync.onStreamMessage(marked(11), 900);
      expect(sync.counters.verificationsPassed).toBe(1);
      sync.onRestSnapshot(snapshot(12, [...BASE, bid('1', '12')]), 950);
      expect(sync.tick(1500).reason).toBe('idle');
      expect(sync.tick(1950).reason).toBe('gap');
    });

    it('uses a pending snapshot as the new base after a gap', () => {
      const sync = liveAt(10, { reorderWindowSize: 2 });
      sync.onRestSnapshot(snapshot(12, [...BASE, bid('1', '12')]), 0);
      for (const version of [13, 14]) sync.onStreamMessage(marked(version), 0);
      const outcome = sync.onStreamMessage(marked(15), 0);
      expect(outcome).toMatchObject({ action: 'none', reason: 'gap', state: 'live', bookChanged: true });
      expect(sync.book.version).toBe(15);
      expect(sync.counters).toMatchObject({ gaps: 1, resyncs: 1, snapshots: 2 });
    });
  });

  describe('reset', () => {
    it('leaves live for resync, forgets the old stream and waits for the new stream snapshot', () => {
      const sync = liveAt(10, { snapshotWaitMs: 1000 });
      sync.onStreamMessage(marked(12), 0);
      const outcome = sync.reset('hub reconnected', 500);
      expect(outcome).toEqual({
        action: 'none',
        reason: 'stream-reset',
        state: 'resync',
        bookChanged: false,
        detail: 'hub reconnected',
      });
      expect(sync.waitingDeltas).toBe(0);
      expect(sync.counters.resyncs).toBe(1);
      expect(sync.book.size('bid')).toBe(2);
      expect(sync.tick(1499).action).toBe('none');
      expect(sync.tick(1500).action).toBe('request-snapshot');
      expect(sync.onStreamMessage(snapshot(13, BASE), 1600).state).toBe('live');
    });

    it('stays syncing when no snapshot was ever loaded', () => {
      const sync = new BookSynchronizer(INSTRUMENT, 0);
      sync.onStreamMessage(marked(3), 0);
      expect(sync.reset('stream error', 10).state).toBe('syncing');
      expect(sync.counters.resyncs).toBe(0);
      expect(sync.waitingDeltas).toBe(0);
    });
  });

  it('rejects messages of another instrument and REST deltas', () => {
    const sync = new BookSynchronizer(INSTRUMENT, 0);
    expect(() => sync.onStreamMessage({ ...marked(1), instrument: 'eth_usdt' }, 0)).toThrow(/eth_usdt/);
    expect(() => sync.onRestSnapshot(marked(1), 0)).toThrow(/snapshot/);
  });

  describe('property: duplicates and reorders within the window change nothing', () => {
    const level = fc.oneof(
      fc.record({
        side: fc.constant('bid' as const),
        price: fc.integer({ min: 1, max: 40 }).map(String),
        amount: fc.constantFrom('0', '1', '2.5'),
      }),
      fc.record({
        side: fc.constant('ask' as const),
        price: fc.integer({ min: 41, max: 80 }).map(String),
        amount: fc.constantFrom('0', '3', '0.125'),
      }),
    );
    const scenario = fc
      .record({
        start: fc.integer({ min: 0, max: 1_000_000 }),
        base: fc.array(level, { maxLength: 20 }),
        deltas: fc.array(fc.array(level, { minLength: 1, maxLength: 5 }), { maxLength: 80 }),
        maxShift: fc.integer({ min: 0, max: 8 }),
      })
      .chain((s) =>
        fc.record({
          scenario: fc.constant(s),
          shifts: fc.array(fc.integer({ min: 0, max: s.maxShift }), {
            minLength: s.deltas.length + 1,
            maxLength: s.deltas.length + 1,
          }),
          duplicates: fc.array(
            fc.tuple(
              fc.nat({ max: Math.max(0, s.deltas.length - 1) }),
              fc.integer({ min: 0, max: 4 * s.maxShift }),
            ),
            { maxLength: s.deltas.length === 0 ? 0 : 30 },
          ),
        }),
      );

    it('ends with the book of the in-order sequence', () => {
      fc.assert(
        fc.property(scenario, ({ scenario: s, shifts, duplicates }) => {
          const messages = [
            snapshot(s.start, s.base),
            ...s.deltas.map((updates, i) => delta(s.start + i + 1, updates)),
          ];
          const expected = OrderBook.fromLevels(s.base, s.start, 0);
          s.deltas.forEach((updates) => updates.forEach((update) => expected.apply(update)));

          const deliveries = messages.map((message, i) => ({ message, at: i + shifts[i], order: i }));
          duplicates.forEach(([index, shift], n) =>
            deliveries.push({
              message: messages[index + 1],
              at: index + 1 + shift,
              order: messages.length + n,
            }),
          );
          deliveries.sort((x, y) => x.at - y.at || x.order - y.order);

          const sync = new BookSynchronizer(INSTRUMENT, 0);
          for (const { message } of deliveries) sync.onStreamMessage(message, 0);

          expect(sync.state).toBe('live');
          expect(sync.counters).toMatchObject({ gaps: 0, resyncs: 0, applied: s.deltas.length });
          expect(sync.book.version).toBe(s.start + s.deltas.length);
          expect(sync.book.levels('bid')).toEqual(expected.levels('bid'));
          expect(sync.book.levels('ask')).toEqual(expected.levels('ask'));
          expect(sync.waitingDeltas).toBe(0);
        }),
        { numRuns: 500 },
      );
    });
  });

  describe('snapshots loaded in slices', () => {
    /** A deep book: `count` levels a side around 1000, so that a small slice needs many steps. */
    const deep = (count: number, amount = '1'): LevelUpdate[] => [
      ...Array.from({ length: count }, (_, i) => bid(`${999 - i}`, amount)),
      ...Array.from({ length: count }, (_, i) => ask(`${1001 + i}`, amount)),
    ];
    const sliced = (options: BookSyncOptions = {}) =>
      new BookSynchronizer(INSTRUMENT, 0, { snapshotSliceLevels: 10, ...options });
    const finishLoad = (sync: BookSynchronizer, now = 0) => {
      let outcome = sync.continueLoad(now);
      while (sync.loadPending) outcome = sync.continueLoad(now);
      return outcome;
    };
    const bookOf = (sync: BookSynchronizer) => [sync.book.levels('bid'), sync.book.levels('ask')];

    it('keeps the book as it was until the last slice, then goes live with the deltas that came meanwhile, in order', () => {
      const sync = sliced();
      expect(sync.onStreamMessage(snapshot(10, deep(20)), 0)).toEqual({
        action: 'none',
        reason: 'snapshot-loading',
        state: 'syncing',
        bookChanged: false,
      });
      expect(sync.onStreamMessage(marked(12), 0).reason).toBe('buffered');
      expect(sync.continueLoad(0)).toMatchObject({ reason: 'snapshot-loading', bookChanged: false });
      expect(sync.onStreamMessage(marked(11), 0).reason).toBe('buffered');
      expect(sync.book.size('bid')).toBe(0);
      expect(sync.tick(60_000).action).toBe('none');
      expect(finishLoad(sync)).toEqual({
        action: 'none',
        reason: 'snapshot',
        state: 'live',
        bookChanged: true,
      });
      expect(sync.book.version).toBe(12);
      expect(sync.book.amount('bid', '1')).toBe('12');
      expect(sync.book.size('ask')).toBe(20);
      expect(sync.counters).toMatchObject({
        snapshots: 1,
        applied: 2,
        loadsAbandoned: 0,
        snapshotRequests: 0,
      });
      expect(sync.continueLoad(0)).toMatchObject({ reason: 'idle', bookChanged: false });
    });

    it('buffers deltas of a live book while a stream snapshot loads, and drops the ones the snapshot covers', () => {
      const sync = liveAt(5, { snapshotSliceLevels: 10 });
      sync.onStreamMessage(snapshot(7, deep(20)), 0);
      expect(sync.onStreamMessage(marked(6), 0).reason).toBe('buffered');
      expect(sync.onStreamMessage(marked(8), 0).reason).toBe('buffered');
      expect(sync.book.version).toBe(5);
      expect(sync.book.levels('bid')).toEqual([
        ['100', '1'],
        ['99', '2'],
      ]);
      finishLoad(sync);
      expect(sync.book.version).toBe(8);
      expect(sync.book.amount('bid', '1')).toBe('8');
      expect(sync.counters).toMatchObject({ superseded: 1, applied: 1 });
    });

    it('lets a newer snapshot replace the load, and ignores a REST snapshot no newer than the one loading', () => {
      const sync = sliced();
      sync.onStreamMessage(snapshot(10, deep(20, '1')), 0);
      sync.continueLoad(0);
      expect(sync.onRestSnapshot(snapshot(10, deep(20, '9')), 0)).toMatchObject({
        reason: 'snapshot-ignored',
        detail: 'snapshot version 10 is not newer than the one loading, 10',
      });
      expect(sync.onRestSnapshot(snapshot(11, deep(20, '2')), 0).reason).toBe('snapshot-loading');
      sync.continueLoad(0);
      expect(sync.onStreamMessage(snapshot(12, deep(20, '3')), 0).reason).toBe('snapshot-loading');
      finishLoad(sync);
      expect(sync.book.version).toBe(12);
      expect(sync.book.best('bid')).toEqual(['999', '3']);
      expect(sync.counters).toMatchObject({ snapshots: 1, loadsAbandoned: 2, snapshotsIgnored: 1 });
    });

    it('abandons the load on a stream reset: the book keeps its last levels and a new snapshot is awaited', () => {
      const sync = liveAt(5, { snapshotSliceLevels: 10, snapshotWaitMs: 100 });
      const before = bookOf(sync);
      sync.onStreamMessage(snapshot(7, deep(20)), 0);
      sync.onStreamMessage(marked(8), 0);
      expect(sync.reset('stream closed', 0)).toMatchObject({ reason: 'stream-reset', state: 'resync' });
      expect(sync.loadPending).toBe(false);
      expect(sync.continueLoad(0)).toMatchObject({ reason: 'idle', bookChanged: false });
      expect(bookOf(sync)).toEqual(before);
      expect(sync.book.version).toBe(5);
      expect(sync.waitingDeltas).toBe(0);
      expect(sync.tick(100).action).toBe('request-snapshot');
      expect(sync.counters.loadsAbandoned).toBe(1);
    });

    it('abandons the load when the buffer overflows meanwhile, and asks for a snapshot', () => {
      const sync = sliced({ maxBufferedMessages: 4 });
      sync.onStreamMessage(snapshot(10, deep(20)), 0);
      let outcome = sync.onStreamMessage(marked(11), 0);
      for (let version = 12; version <= 15; version++) outcome = sync.onStreamMessage(marked(version), 0);
      expect(outcome).toMatchObject({
        action: 'request-snapshot',
        reason: 'buffer-overflow',
        state: 'resync',
      });
      expect(sync.loadPending).toBe(false);
      expect(sync.counters.loadsAbandoned).toBe(1);
    });

    it('heals a failed check from the REST snapshot over several slices', () => {
      const sync = liveAt(5, { snapshotSliceLevels: 10 });
      const outcome = sync.onRestSnapshot(snapshot(5, deep(20)), 0);
      expect(outcome).toMatchObject({ action: 'none', reason: 'verify-failed', state: 'resync' });
      expect(sync.loadPending).toBe(true);
      expect(finishLoad(sync)).toMatchObject({ reason: 'snapshot', state: 'live' });
      expect(sync.book.size('bid')).toBe(20);
    });

    type Event =
      | { kind: 'snapshot'; updates: LevelUpdate[] }
      | { kind: 'delta'; updates: LevelUpdate[] }
      | { kind: 'reset' }
      | { kind: 'step' }
      | { kind: 'take' };
    const level = fc.record({
      side: fc.constantFrom<'bid' | 'ask'>('bid', 'ask'),
      price: fc.integer({ min: 1, max: 30 }).map(String),
      amount: fc.constantFrom('0', '1', '2'),
    });
    const event: fc.Arbitrary<Event> = fc.oneof(
      {
        weight: 2,
        arbitrary: fc
          .array(level, { maxLength: 30 })
          .map((updates): Event => ({ kind: 'snapshot', updates })),
      },
      {
        weight: 8,
        arbitrary: fc
          .array(level, { minLength: 1, maxLength: 3 })
          .map((updates): Event => ({ kind: 'delta', updates })),
      },
      { weight: 1, arbitrary: fc.constant<Event>({ kind: 'reset' }) },
      { weight: 6, arbitrary: fc.constant<Event>({ kind: 'step' }) },
      { weight: 2, arbitrary: fc.constant<Event>({ kind: 'take' }) },
    );

    /** What the store holds, only ever changed through the book's changes. */
    const storeOf = () => {
      const sides = { bid: new Map<string, string>(), ask: new Map<string, string>() };
      return {
        take(book: OrderBook): void {
          const changes = book.takeChanges();
          for (const [side, levels] of [
            ['bid', changes.bids],
            ['ask', changes.asks],
          ] as const)
            for (const [price, amount] of levels)
              if (amount === '0') sides[side].delete(price);
              else sides[side].set(price, amount);
        },
        holds(book: OrderBook): boolean {
          return (['bid', 'ask'] as const).every(
            (side) =>
              sides[side].size === book.size(side) &&
              book.levels(side).every(([price, amount]) => sides[side].get(price) === amount),
          );
        },
      };
    };

    it('ends as if each snapshot had been loaded at once when its last slice was done, with the deltas of meanwhile after it', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 6 }),
          fc.array(event, { maxLength: 120 }),
          (sliceLevels, events) => {
            const sync = new BookSynchronizer(INSTRUMENT, 0, { snapshotSliceLevels: sliceLevels });
            const atOnce = new BookSynchronizer(INSTRUMENT, 0, { snapshotSliceLevels: Infinity });
            const store = storeOf();
            const storeAtOnce = storeOf();
            /** The messages the one-shot synchronizer gets once the load in progress is done: its snapshot first. */
            let deferred: BookMessage[] | undefined;
            let levelsAtLoadStart: ReturnType<typeof bookOf> = [];
            let version = 1;
            const deliver = (messages: BookMessage[]) =>
              messages.forEach((m) => atOnce.onStreamMessage(m, 0));
            const afterLoad = () => {
              if (deferred === undefined || sync.loadPending) return;
              deliver(deferred);
              deferred = undefined;
            };
            for (const e of events) {
              if (e.kind === 'snapshot') {
                const message = snapshot(version, e.updates);
                sync.onStreamMessage(message, 0);
                // A newer snapshot drops the load under way with what waited for it.
                deferred = [message];
                levelsAtLoadStart = bookOf(sync);
                afterLoad();
              } else if (e.kind === 'delta') {
                const message = delta(++version, e.updates);
                sync.onStreamMessage(message, 0);
                if (deferred === undefined) deliver([message]);
                else deferred.push(message);
              } else if (e.kind === 'reset') {
                sync.reset('reset', 0);
                atOnce.reset('reset', 0);
                deferred = undefined;
              } else if (e.kind === 'step') {
                sync.continueLoad(0);
                afterLoad();
              } else {
                store.take(sync.book);
                storeAtOnce.take(atOnce.book);
                expect(store.holds(sync.book)).toBe(true);
              }
              if (sync.loadPending) {
                // Nothing of a load is visible before its last slice.
                expect(bookOf(sync)).toEqual(levelsAtLoadStart);
              } else {
                expect(bookOf(sync)).toEqual(bookOf(atOnce));
                expect(sync.book.version).toBe(atOnce.book.version);
                expect(sync.state).toBe(atOnce.state);
              }
            }
            while (sync.loadPending) sync.continueLoad(0);
            afterLoad();
            expect(bookOf(sync)).toEqual(bookOf(atOnce));
            store.take(sync.book);
            storeAtOnce.take(atOnce.book);
            expect(store.holds(sync.book)).toBe(true);
            expect(storeAtOnce.holds(atOnce.book)).toBe(true);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});
