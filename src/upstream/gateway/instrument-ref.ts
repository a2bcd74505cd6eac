/** An instrument as the gateway numbers it and as the domain names it (`btc_usdt`). */
export interface InstrumentRef {
  readonly instrumentId: number;
  readonly instrument: string;
}

/** Domain names of the gateway's instrument ids. */
export type InstrumentNames = ReadonlyMap<number, string>;
