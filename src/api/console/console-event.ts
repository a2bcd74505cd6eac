/**
 * What the console's event list names: a book leaving or regaining sync (`sync`), an upstream
 * connection changing state (`upstream`), an instrument changing owner (`ownership`), the store
 * becoming unreachable, reachable again or losing its contents (`store`).
 */
export type ConsoleEventKind = 'sync' | 'upstream' | 'ownership' | 'store';

export interface ConsoleEvent {
  /** Unix milliseconds when this process observed it. */
  readonly at: number;
  readonly kind: ConsoleEventKind;
  /** The market it concerns, as `/summary` keys it (`BTC_USDT`); absent for the process as a whole. */
  readonly market?: string;
  readonly message: string;
  /**
   * Shown on the public status page as an incident: a market's data (or all data, for the store)
   * interrupted (`began`) or back (`ended`); null for what the public page does not show.
   */
  readonly incident: 'began' | 'ended' | null;
}
