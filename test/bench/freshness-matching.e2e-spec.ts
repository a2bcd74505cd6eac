import {
  EmittedTop,
  lagsFrom,
  tickerStates,
  timeableTickerStates,
  topLags,
  versionLags,
} from './freshness-matching';

/** Ticker states (bid|ask) emitted at the given times, one version each. */
function states(...emitted: [time: number, key: string][]): EmittedTop[] {
  return emitted.map(([time, key], version) => ({ time, key, version }));
}

describe('freshness matching', () => {
  it('gives each emitted state its lag in the order of the states, skipped ones by a newer one', () => {
    const emitted = states([0, 'a|b'], [10, 'a|c'], [20, 'd|c'], [500, 'e|c']);
    const lags = topLags(emitted, [
      { time: 90, key: 'a|c' },
      { time: 130, key: 'd|c' },
    ]);

    expect(lags.lags).toEqual([90, 80, 110]);
    expect(lags.unseen).toBe(1);
  });

  it('times only the states of the window, and those kept', () => {
    const emitted = states([0, 'a|b'], [10, 'a|c'], [20, 'd|c'], [500, 'e|c']);
    const { lags } = topLags(emitted, [
      { time: 90, key: 'a|c' },
      { time: 130, key: 'd|c' },
    ]);

    expect(lagsFrom(emitted, lags, 10)).toEqual([80, 110]);
    expect(lagsFrom(emitted, lags, 10, [true, false, true, true])).toEqual([110]);
  });

  it('gives each state the first version seen that is its own or later, a return to a shown top included', () => {
    // Versions 0, 1, 2: the top goes a|b, a|c and back to a|b, all within one write (version 2 at 40).
    const emitted = states([0, 'a|b'], [10, 'a|c'], [20, 'a|b'], [500, 'e|c']);
    const seen = [
      { time: 5, version: 0 },
      { time: 40, version: 2 },
    ];

    expect(versionLags(emitted, seen)).toEqual({ lags: [5, 30, 20], unseen: 1 });
    // Matched by the top alone, the return to a|b would wait for the next change of the top.
    expect(topLags(emitted, [{ time: 5, key: 'a|b' }]).lags).toEqual([5]);
  });

  it('keeps the states of a ticker whose prices changed', () => {
    const emitted = states([0, '1 5|2 5'], [10, '1 6|2 5'], [20, '1 6|3 5']);

    expect(tickerStates(emitted).map((state) => state.key)).toEqual(['1|2', '1|3']);
  });

  it('times a change of prices that does not come back', () => {
    const emitted = states([0, '1|2'], [300, '1|3'], [600, '2|3'], [900, '2|4']);

    expect(timeableTickerStates(emitted, 200)).toEqual([true, true, true, true]);
  });

  it('leaves out a return to recent prices and the states it spans, but not older returns', () => {
    const emitted = states(
      [0, '1|2'],
      [40, '1|3'], // 1|2 comes back at 60
      [60, '1|2'], // shown 60 ms before
      [400, '5|6'],
      [1_000, '1|3'], // last emitted 960 ms before: outside the window
    );

    expect(timeableTickerStates(emitted, 200)).toEqual([true, false, false, true, true]);
  });

  it('shows why: a poller that records changes credits a returned state only at the next change', () => {
    const emitted = states([0, '1|2'], [40, '1|3'], [60, '1|2'], [400, '5|6']);
    // The poller saw 1|2 before 1|3 was emitted, never saw 1|3, and saw 5|6 at 450.
    const lags = topLags(emitted, [
      { time: 20, key: '1|2' },
      { time: 450, key: '5|6' },
    ]);

    expect(lags.lags).toEqual([20, 410, 390, 50]);
    expect(timeableTickerStates(emitted, 200)).toEqual([true, false, false, true]);
  });

  it('needs the states before the window to know that a state in it returns to recent prices', () => {
    const emitted = states([900, '1|3'], [1_000, '1|2'], [1_060, '1|3'], [1_400, '5|6']);
    const inWindow = emitted.slice(2); // the window starts at 1,050

    // With its history, 1|3 at 1,060 is a return to prices emitted 160 ms before.
    expect(timeableTickerStates(emitted, 200)[2]).toBe(false);
    // Recorded only from the window's start, it would look like a change a poller can time.
    expect(timeableTickerStates(inWindow, 200)[0]).toBe(true);
  });
});
