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
 * Each replica ranks instruments by a hash of (replica, instrument) (rendezvous hashing), and those it
 * ranks above every other live replica (its own) before the rest: it takes free ones in that order and
 * gives up the last. Replicas that plan at once from the same view so take almost no instrument twice,
 * and a cold start settles in one round rather than in several rounds of races; the same replica
 * tends to get the same instruments back.
 */
export function planLeases(input: LeasePlanInput): LeasePlan {
  const members = [...new Set(input.members).add(input.self)];
  const target = Math.ceil(input.listed.length / members.length);
  const owned = input.listed.filter((instrument) => input.holders.get(instrument) === input.self);
  if (owned.length > target) {
    const release = byPreference(input.self, owned, members)
      .reverse()
      .slice(0, owned.length - target);
    return { target, acquire: [], release };
  }
  const free = input.listed.filter((instrument) => input.holders.get(instrument) === undefined);
  return {
    target,
    acquire: byPreference(input.self, free, members).slice(0, target - owned.length),
    release: [],
  };
}

/**
 * The instruments in this replica's order of preference, most preferred first: its own (those it
 * ranks above every other of `members`), then the rest, each by rank.
 */
export function byPreference(
  self: string,
  instruments: readonly string[],
  members: readonly string[] = [],
): string[] {
  const others = members.filter((member) => member !== self);
  const ranked = instruments.map((instrument) => {
    const rank = preference(self, instrument);
    const own = others.every((other) => preference(other, instrument) < rank);
    return { instrument, rank: own ? rank + OWN : rank };
  });
  ranked.sort((a, b) => b.rank - a.rank || (a.instrument < b.instrument ? -1 : 1));
  return ranked.map(({ instrument }) => instrument);
}

/** Above every rank, which are 32-bit. */
const OWN = 2 ** 32;

/** The rank `self` gives `instrument`: 32 bits of a hash of both. */
export function preference(self: string, instrument: string): number {
  return createHash('sha1').update(`${self}\n${instrument}`).digest().readUInt32BE(0);
}
