/** The inputs of the market catalogue, by the name metrics and `/health/ready` give them. */
export type CatalogInputName = 'exchange_info' | 'gateway_instruments' | 'assets_file';

/** How the last read of one input went. */
export interface CatalogInputHealth {
  readonly ok: boolean;
  /** Why the last read failed, or what part of it was unusable. */
  readonly problem?: string;
  /** Unix milliseconds of the first failed read of this spell. */
  readonly failingSince?: number;
  /** Unix milliseconds of the last good read: what the catalogue still uses while the input fails. */
  readonly lastGoodAt?: number;
}

export interface CatalogInputEvents {
  /** An input turned bad, or is bad for another reason than before; called once per cause. */
  failing(input: CatalogInputName, problem: string, lastGoodAt: number | undefined): void;
  /** An input that failed is good again. */
  recovered(input: CatalogInputName): void;
}

/**
 * Follows each input of the catalogue through the refreshes: a failing input is reported once per
 * cause, not at every refresh, and once when it is good again, while the catalogue keeps the input's
 * last good content.
 */
export class CatalogInputs {
  private readonly inputs = new Map<CatalogInputName, CatalogInputHealth>();

  constructor(
    private readonly events: CatalogInputEvents,
    private readonly now: () => number,
  ) {}

  succeeded(input: CatalogInputName): void {
    const before = this.inputs.get(input);
    this.inputs.set(input, { ok: true, lastGoodAt: this.now() });
    if (before && !before.ok) this.events.recovered(input);
  }

  failed(input: CatalogInputName, problem: string): void {
    const before = this.inputs.get(input);
    const lastGoodAt = before?.lastGoodAt;
    const failingSince = before && !before.ok ? before.failingSince : this.now();
    this.inputs.set(input, { ok: false, problem, failingSince, lastGoodAt });
    if (before?.ok !== false || before.problem !== problem) this.events.failing(input, problem, lastGoodAt);
  }

  /** Every input read so far, by name. */
  health(): ReadonlyMap<CatalogInputName, CatalogInputHealth> {
    return this.inputs;
  }
}
