import { byPreference, planLeases, preference } from './lease-plan';

const instruments = (count: number): string[] => Array.from({ length: count }, (_, index) => `i${index}`);

/** Replicas that take turns planning against one shared map of holders, as they would in Redis. */
class Cluster {
  readonly holders = new Map<string, string | undefined>();

  constructor(
    readonly listed: string[],
    public members: string[],
  ) {}

  round(self: string): void {
    const plan = planLeases({ self, members: this.members, listed: this.listed, holders: this.holders });
    for (const instrument of plan.release) this.holders.delete(instrument);
    for (const instrument of plan.acquire)
      if (this.holders.get(instrument) === undefined) this.holders.set(instrument, self);
  }

  /** Every replica plans from the same view, then their takes reach Redis in turn: the first wins. */
  concurrentRound(): void {
    const plans = this.members.map(
      (self) =>
        [
          self,
          planLeases({ self, members: this.members, listed: this.listed, holders: new Map(this.holders) }),
        ] as const,
    );
    for (const [self, plan] of plans)
      for (const instrument of plan.acquire)
        if (this.holders.get(instrument) === undefined) this.holders.set(instrument, self);
  }

  rounds(count: number): void {
    for (let index = 0; index < count; index++) for (const member of this.members) this.round(member);
  }

  shares(): Record<string, number> {
    const shares: Record<string, number> = Object.fromEntries(this.members.map((member) => [member, 0]));
    for (const holder of this.holders.values())
      if (holder !== undefined) shares[holder] = (shares[holder] ?? 0) + 1;
    return shares;
  }

  unowned(): string[] {
    return this.listed.filter((instrument) => this.holders.get(instrument) === undefined);
  }
}

describe('planLeases', () => {
  it('takes free instruments up to ceil(listed / replicas), most preferred first', () => {
    const listed = instruments(10);
    const plan = planLeases({ self: 'a', members: ['a', 'b', 'c'], listed, holders: new Map() });
    expect(plan.target).toBe(4);
    expect(plan.release).toEqual([]);
    expect(plan.acquire).toEqual(byPreference('a', listed, ['a', 'b', 'c']).slice(0, 4));
  });

  it('counts itself among the replicas even when the members read do not list it', () => {
    expect(planLeases({ self: 'a', members: ['b'], listed: instruments(4), holders: new Map() }).target).toBe(
      2,
    );
    expect(planLeases({ self: 'a', members: [], listed: instruments(4), holders: new Map() }).target).toBe(4);
  });

  it('takes only free instruments, and no more than its share minus what it owns', () => {
    const listed = instruments(6);
    const holders = new Map<string, string | undefined>([
      ['i0', 'a'],
      ['i1', 'b'],
      ['i2', 'b'],
      ['i3', 'earlier run'],
    ]);
    const plan = planLeases({ self: 'a', members: ['a', 'b'], listed, holders });
    expect(plan.target).toBe(3);
    expect(plan.acquire).toEqual(byPreference('a', ['i4', 'i5'], ['a', 'b']));
    expect(planLeases({ self: 'a', members: ['a', 'b', 'c'], listed, holders }).acquire).toHaveLength(1);
  });

  it('gives up its least preferred instruments beyond its share, and takes nothing then', () => {
    const listed = instruments(9);
    const holders = new Map<string, string | undefined>(listed.map((instrument) => [instrument, 'a']));
    const plan = planLeases({ self: 'a', members: ['a', 'b', 'c'], listed, holders });
    expect(plan.target).toBe(3);
    expect(plan.acquire).toEqual([]);
    expect(plan.release).toEqual(byPreference('a', listed, ['a', 'b', 'c']).slice(3).reverse());
  });

  it('prefers the instruments it ranks above every other replica, then the rest, each by rank', () => {
    const listed = instruments(30);
    const members = ['a', 'b', 'c'];
    const order = byPreference('a', listed, members);
    const homes = order.filter((instrument) =>
      members.every(
        (member) => member === 'a' || preference(member, instrument) < preference('a', instrument),
      ),
    );
    expect(homes.length).toBeGreaterThan(0);
    expect(order.slice(0, homes.length)).toEqual(homes);
    expect(homes).toEqual(byPreference('a', homes));
    expect(order.slice(homes.length)).toEqual(byPreference('a', order.slice(homes.length)));
  });

  it('ranks instruments differently for different replicas, and the same way every time', () => {
    const listed = instruments(20);
    expect(byPreference('a', listed)).toEqual(byPreference('a', [...listed].reverse()));
    expect(byPreference('a', listed)).not.toEqual(byPreference('b', listed));
  });

  it('shares instruments out fairly with exactly one owner each, whatever the order of start', () => {
    const cluster = new Cluster(instruments(9), ['a']);
    cluster.rounds(1);
    expect(cluster.shares()).toEqual({ a: 9 });
    cluster.members = ['a', 'b', 'c'];
    cluster.rounds(3);
    expect(cluster.shares()).toEqual({ a: 3, b: 3, c: 3 });
    expect(cluster.unowned()).toEqual([]);
  });

  it('hands the instruments of a replica that left to the others within one round once they agree it left', () => {
    const cluster = new Cluster(instruments(10), ['a', 'b', 'c']);
    cluster.rounds(2);
    expect(cluster.shares()).toEqual({ a: 4, b: 4, c: 2 });
    for (const [instrument, holder] of cluster.holders)
      if (holder === 'c') cluster.holders.delete(instrument);
    cluster.members = ['a', 'b'];
    cluster.rounds(1);
    expect(cluster.unowned()).toEqual([]);
    expect(cluster.shares()).toEqual({ a: 5, b: 5 });
  });

  it('owns almost everything after one round of replicas that start together', () => {
    const cluster = new Cluster(instruments(3_000), ['a', 'b', 'c']);
    cluster.concurrentRound();
    // Ranked by each replica alone, about (2/3)^3 of them (30 %) would stay free for later rounds.
    expect(cluster.unowned().length).toBeLessThan(150);
    cluster.concurrentRound();
    expect(cluster.unowned()).toEqual([]);
    expect(Math.max(...Object.values(cluster.shares()))).toBe(1_000);
  });

  it('leaves nothing unowned and nobody above its share for any count of instruments and replicas', () => {
    for (let count = 0; count <= 25; count++) {
      for (let replicas = 1; replicas <= 6; replicas++) {
        const members = instruments(replicas).map((name) => `replica-${name}`);
        const cluster = new Cluster(instruments(count), members);
        cluster.rounds(3);
        expect(cluster.unowned()).toEqual([]);
        const share = Math.ceil(count / replicas);
        expect(Math.max(...Object.values(cluster.shares()))).toBeLessThanOrEqual(share);
      }
    }
  });
});
