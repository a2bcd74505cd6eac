import { ConsoleEvent } from './console-event';

/** A market as the public status page shows it: live, or its data stale. */
export interface StatusMarket {
  readonly market: string;
  readonly state: 'live' | 'stale';
  readonly dataAgeMs: number | null;
}

export interface StatusIncident {
  readonly at: number;
  readonly market: string | null;
  readonly message: string;
}

export interface StatusSnapshot {
  readonly view: 'status';
  readonly generatedAt: number;
  /** The data comes from the built-in sandbox exchange: simulated prices. */
  readonly sandbox: boolean;
  readonly markets: readonly StatusMarket[];
  readonly incidents: readonly StatusIncident[];
}

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
