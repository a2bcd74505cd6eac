import { createHash } from 'node:crypto';

export interface LeasePlanInput {
  readonly self: string;
  /** Live replicas as last seen (this one is counted whether listed or not). */
  readonly members: readonly string[];
  readonly listed: readonly string[];
  /** Owner of each listed instrument now; absent or undefined: free. */
  readonly holders: ReadonlyMap<string, string | undefined>;
}

export interface LeasePlan {
  /** Instruments this replica should own: its fair share of the listed ones. */
  readonly target: number;
  /** Free instruments to try to take, most preferred first. */
  readonly acquire: readonly string[];
  /** Instruments to give up, so that replicas below their share can take them. */
  readonly release: readonly string[];
}

/**
 * What one replica does in a round: aim at ceil(listed / replicas) instruments, taking free ones up to
 * that share and giving up what is beyond it. The shares add up to at least the listed count, so
 * every instrument finds an owner once the replicas agree on who is alive; a replica that joins
 * lowers everyone's share, and the others give up their excess for it to take.
 *
 * Each replica ranks instruments by a hash of (replica, instrument), highest first (rendezvous
 * hashing): it takes free ones in that order and gives up its lowest ranked. Replicas rank differently,
 * so that they rarely race for the same instrument, and the same replica tends to get the same
 * instruments back.
 */
export function planLeases(input: LeasePlanInput): LeasePlan {
  const replicas = new Set(input.members).add(input.self).size;
  const target = Math.ceil(input.listed.length / replicas);
  const owned = input.listed.filter((instrument) => input.holders.get(instrument) === input.self);
  if (owned.length > target) {
    const release = byPreference(input.self, owned)
      .reverse()
      .slice(0, owned.length - target);
    return { target, acquire: [], release };
  }
  const free = input.listed.filter((instrument) => input.holders.get(instrument) === undefined);
  return { target, acquire: byPreference(input.self, free).slice(0, target - owned.length), release: [] };
}

/** The instruments in this replica's order of preference, most preferred first. */
export function byPreference(self: string, instruments: readonly string[]): string[] {
  const ranked = instruments.map((instrument) => ({ instrument, rank: preference(self, instrument) }));
  ranked.sort((a, b) => b.rank - a.rank || (a.instrument < b.instrument ? -1 : 1));
  return ranked.map(({ instrument }) => instrument);
}

function preference(self: string, instrument: string): number {
  return createHash('sha1').update(`${self}\n${instrument}`).digest().readUInt32BE(0);
}
