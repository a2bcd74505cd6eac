/** A state of the top of one book as the exchange emitted it: when, and what it looked like. */
export interface EmittedTop {
  /** Event time, Unix milliseconds. */
  readonly time: number;
  readonly key: string;
}

/** A state of the top of one book as the API showed it, and when it was first seen there. */
export interface ObservedTop {
  /** Unix milliseconds when the response arrived. */
  readonly time: number;
  readonly key: string;
}

export interface TopLags {
  /** Milliseconds from each emitted state's event time to the first response that showed it or a newer one. */
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
