/** A state of the top of one book as the exchange emitted it: when, and what it looked like. */
export interface EmittedTop {
  /** Event time, Unix milliseconds. */
  readonly time: number;
  readonly key: string;
  /** The book version of the change that made this state. */
  readonly version: number;
}

/** A book version that reached a reader (the store's change notice, a stream message), and when. */
export interface VersionSeen {
  readonly time: number;
  readonly version: number;
}

/** A state of the top of one book as the API showed it, and when it was first seen there. */
export interface ObservedTop {
  /** Unix milliseconds when the response arrived. */
  readonly time: number;
  readonly key: string;
}

export interface TopLags {
  /**
   * Milliseconds from each emitted state's event time to the first response that showed it or a
   * newer one, in the order of the states: `lags[i]` is the lag of `emitted[i]`.
   */
  readonly lags: number[];
  /** Emitted states that no response showed, nor any newer state. */
  readonly unseen: number;
}

/**
 * How long each emitted state of a book's top took to become visible through the API. A response
 * that shows state j (the newest emitted state with that key emitted before the response) makes
 * every state up to j visible: the API shows j or a newer state than each of them. States the API
 * skipped (several changes within one write) count as visible when a newer one is.
 * `emitted` and `observed` are oldest first; observed states are only the changes between responses.
 */
export function topLags(emitted: readonly EmittedTop[], observed: readonly ObservedTop[]): TopLags {
  const lags: number[] = [];
  let next = 0;
  let emittedBefore = 0;
  for (const observation of observed) {
    while (emittedBefore < emitted.length && emitted[emittedBefore].time <= observation.time) emittedBefore++;
    let shown = -1;
    for (let j = emittedBefore - 1; j >= next; j--) {
      if (emitted[j].key === observation.key) {
        shown = j;
        break;
      }
    }
    if (shown < 0) continue;
    for (let k = next; k <= shown; k++) lags.push(observation.time - emitted[k].time);
    next = shown + 1;
  }
  return { lags, unseen: emitted.length - next };
}

/**
 * The lags (`lags[i]` of `states[i]`) of the states emitted at or after `since`, and kept by `keep`
 * when given. The states before it give the matching its history, what the poller had already
 * been shown and which prices came back, without being timed themselves.
 */
export function lagsFrom(
  states: readonly EmittedTop[],
  lags: readonly number[],
  since: number,
  keep?: readonly boolean[],
): number[] {
  return lags.filter((_, index) => states[index].time >= since && (keep?.[index] ?? true));
}

/**
 * How long each emitted state took to reach a reader of versions: from its event time to the first
 * version seen that is its own or a later one. Both lists oldest first; versions grow in both.
 */
export function versionLags(emitted: readonly EmittedTop[], seen: readonly VersionSeen[]): TopLags {
  const lags: number[] = [];
  let next = 0;
  for (const [index, state] of emitted.entries()) {
    while (next < seen.length && seen[next].version < state.version) next++;
    if (next === seen.length) return { lags, unseen: emitted.length - index };
    lags.push(seen[next].time - state.time);
  }
  return { lags, unseen: 0 };
}

/** `"91554.00"` and `"91554"` are the same price: decimals compared without trailing zeros. */
export function canonicalDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** The key of a top of book, `bidPrice bidAmount|askPrice askAmount`, the same for both sources. */
export function topKey(
  bid: readonly string[] | null | undefined,
  ask: readonly string[] | null | undefined,
): string {
  const side = (level: readonly string[] | null | undefined): string =>
    level ? level.map(canonicalDecimal).join(' ') : '-';
  return `${side(bid)}|${side(ask)}`;
}

/** The prices of a top-of-book key, `bidPrice|askPrice`: what a ticker shows of the top (no amounts). */
export function tickerKey(topOfBookKey: string): string {
  return topOfBookKey
    .split('|')
    .map((side) => side.split(' ')[0])
    .join('|');
}

/**
 * The states of the top as a ticker can show them: by their prices, and only those whose prices
 * differ from the state before. A change of amounts alone shows nowhere in a ticker, so it has no
 * lag there; and since a poller records a ticker only when it changes, such a state would otherwise
 * wait for the next change of prices to count as shown.
 */
export function tickerStates(emitted: readonly EmittedTop[]): EmittedTop[] {
  const states: EmittedTop[] = [];
  for (const state of emitted) {
    const key = tickerKey(state.key);
    if (states.length === 0 || states[states.length - 1].key !== key) states.push({ ...state, key });
  }
  return states;
}

/**
 * Which ticker states a poller can time, by index. Prices come back often (bid 10.1, then 10.2, then
 * 10.1 again), and a poller that records a ticker when it changes cannot see a return to prices it
 * was already shown: the state that returns, and the ones between the two times those prices were
 * emitted, are credited only at the next change of prices, however soon the API showed them. A
 * state is left out when its own prices were emitted within `windowMs` before it, or when prices
 * emitted within `windowMs` before it come back within `windowMs` after it.
 */
export function timeableTickerStates(states: readonly EmittedTop[], windowMs: number): boolean[] {
  return states.map((state, index) => {
    const recent = new Set<string>();
    for (let j = index - 1; j >= 0 && states[j].time >= state.time - windowMs; j--) recent.add(states[j].key);
    if (recent.has(state.key)) return false;
    for (let j = index + 1; j < states.length && states[j].time <= state.time + windowMs; j++)
      if (recent.has(states[j].key)) return false;
    return true;
  });
}

/** A trade record of `/trades/{instrument}` as the pollers read it. */
export interface PolledTrade {
  readonly tradeID: string | number;
  readonly trade_timestamp: string | number;
}

/**
 * The trades of a `/trades` body (newest first) stamped at or after `since`, read one record at a time
 * and no further: a day's list is long, and parsing all of it on every poll made the poller's own
 * process the slowest part of the measurement. The records are flat objects, so each ends at its
 * first `}`.
 */
export function recentTrades(body: string, since: number): PolledTrade[] {
  const trades: PolledTrade[] = [];
  for (let start = body.indexOf('{'); start >= 0; start = body.indexOf('{', start + 1)) {
    const end = body.indexOf('}', start);
    const trade = JSON.parse(body.slice(start, end + 1)) as PolledTrade;
    if (Number(trade.trade_timestamp) < since) break;
    trades.push(trade);
    start = end;
  }
  return trades;
}
