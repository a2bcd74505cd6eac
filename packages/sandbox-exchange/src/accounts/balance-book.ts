/** What an account holds of one asset, in balance units: free to use, and locked by open orders. */
export interface AssetBalance {
  readonly asset: string;
  readonly available: bigint;
  readonly locked: bigint;
}

interface Holding {
  available: bigint;
  locked: bigint;
}

/** A move that would make a balance negative: a bug of the caller, never a user error. */
export class BalanceInvariantError extends Error {
  constructor(accountId: number, asset: string, what: string) {
    super(`account ${accountId} ${asset}: ${what}`);
    this.name = 'BalanceInvariantError';
  }
}

/**
 * Balances per account and asset. Every move keeps both figures non-negative or throws; the caller
 * checks `available` before it reserves.
 */
export class BalanceBook {
  private readonly accounts = new Map<number, Map<string, Holding>>();

  balance(accountId: number, asset: string): AssetBalance {
    const holding = this.accounts.get(accountId)?.get(asset);
    return { asset, available: holding?.available ?? 0n, locked: holding?.locked ?? 0n };
  }

  /** Every asset the account has held, in the order it first held them. */
  balances(accountId: number): AssetBalance[] {
    return [...(this.accounts.get(accountId)?.entries() ?? [])].map(([asset, holding]) => ({
      asset,
      available: holding.available,
      locked: holding.locked,
    }));
  }

  /** Adds to the available amount (a deposit or the proceeds of a fill). */
  credit(accountId: number, asset: string, units: bigint): void {
    this.holding(accountId, asset).available += this.nonNegative(accountId, asset, units);
  }

  /** Moves available to locked; false, and nothing moved, when too little is available. */
  reserve(accountId: number, asset: string, units: bigint): boolean {
    const holding = this.holding(accountId, asset);
    if (holding.available < this.nonNegative(accountId, asset, units)) return false;
    holding.available -= units;
    holding.locked += units;
    return true;
  }

  /** Moves locked back to available. */
  release(accountId: number, asset: string, units: bigint): void {
    this.takeLocked(accountId, asset, units).available += units;
  }

  /** Removes locked units from the account (what a fill pays). */
  spendLocked(accountId: number, asset: string, units: bigint): void {
    this.takeLocked(accountId, asset, units);
  }

  private takeLocked(accountId: number, asset: string, units: bigint): Holding {
    const holding = this.holding(accountId, asset);
    if (holding.locked < this.nonNegative(accountId, asset, units))
      throw new BalanceInvariantError(accountId, asset, `${units} taken from ${holding.locked} locked`);
    holding.locked -= units;
    return holding;
  }

  private holding(accountId: number, asset: string): Holding {
    let assets = this.accounts.get(accountId);
    if (!assets) {
      assets = new Map();
      this.accounts.set(accountId, assets);
    }
    let holding = assets.get(asset);
    if (!holding) {
      holding = { available: 0n, locked: 0n };
      assets.set(asset, holding);
    }
    return holding;
  }

  private nonNegative(accountId: number, asset: string, units: bigint): bigint {
    if (units < 0n) throw new BalanceInvariantError(accountId, asset, `negative move ${units}`);
    return units;
  }
}
