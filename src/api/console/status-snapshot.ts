import { ConsoleEvent } from './console-event';

import type { StatusSnapshot } from './console-schemas';

export type { StatusIncident, StatusMarket, StatusSnapshot } from './console-schemas';

/** Incidents shown: the newest, enough for a day of an unsteady market. */
const INCIDENTS_SHOWN = 50;

export interface StatusInput {
  readonly now: number;
  readonly staleAfterMs: number;
  readonly markets: readonly {
    readonly market: string;
    readonly syncState: string | null | undefined;
    readonly dataAgeMs: number | null;
  }[];
  readonly storeReachable: boolean;
  readonly sandbox: boolean;
  readonly events: readonly ConsoleEvent[];
}

/**
 * The public view: each market's state and data age, and incidents in plain words. Nothing internal
 * leaves here: no replica, version, price, flag or connection, and no event's own message.
 */
export function statusSnapshot(input: StatusInput): StatusSnapshot {
  return {
    view: 'status',
    generatedAt: input.now,
    sandbox: input.sandbox,
    markets: input.markets.map((row) => ({
      market: row.market,
      state:
        input.storeReachable &&
        row.syncState === 'live' &&
        row.dataAgeMs !== null &&
        row.dataAgeMs < input.staleAfterMs
          ? 'live'
          : 'stale',
      dataAgeMs: row.dataAgeMs,
    })),
    incidents: input.events
      .filter((event) => event.incident !== null)
      .slice(0, INCIDENTS_SHOWN)
      .map((event) => ({ at: event.at, market: event.market ?? null, message: incidentText(event) })),
  };
}

function incidentText(event: ConsoleEvent): string {
  const ended = event.incident === 'ended';
  if (event.market === undefined)
    return ended ? 'all markets: data flowing again' : 'all markets: data may be delayed';
  return ended ? 'data live again' : 'data interrupted';
}
