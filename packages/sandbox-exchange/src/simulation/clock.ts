export interface Clock {
  /** Unix milliseconds. */
  now(): number;
}

/**
 * The host's wall clock, held still while it has stepped back (NTP, a resumed virtual machine) until
 * it catches up: an exchange's trade times never go backwards, and the trade log is ordered by them.
 */
export function nonDecreasing(source: () => number): Clock {
  let latest = -Infinity;
  return {
    now: () => {
      latest = Math.max(latest, source());
      return latest;
    },
  };
}

export const systemClock: Clock = nonDecreasing(() => Date.now());
