import { BehindWatch } from './behind-watch';

describe('BehindWatch', () => {
  it('counts from the first time behind until caught up', () => {
    const watch = new BehindWatch(100);
    expect(watch.tooLong(1_000)).toBe(false);
    watch.behind(10);
    watch.behind(60);
    expect(watch.tooLong(109)).toBe(false);
    expect(watch.tooLong(110)).toBe(true);
    watch.caughtUp();
    expect(watch.tooLong(500)).toBe(false);
    watch.behind(500);
    expect(watch.tooLong(599)).toBe(false);
  });
});
