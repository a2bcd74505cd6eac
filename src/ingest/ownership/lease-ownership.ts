import { Logger } from '@nestjs/common';
import { StoreKeys } from '../../store/keys';
import { decodeLease, encodeLease } from '../../store/lease-value';
import { RedisClient } from '../../store/redis-client';
import { getAll } from '../../store/redis-state-store';
import { WriteFence } from '../../store/state-store';
import { InstrumentOwnership, OwnershipListener, OwnershipStatus } from './instrument-ownership';
import { planLeases } from './lease-plan';
import {
  ACQUIRE_LEASE,
  acquireCall,
  HEARTBEAT,
  heartbeatCall,
  RELEASE_LEASE,
  releaseCall,
  RENEW_LEASE,
  renewCall,
} from './lease-scripts';

export interface LeaseOwnershipOptions {
  /** A connection that fails fast while Redis is away (see `storeRedisOptions`). */
  readonly client: RedisClient;
  readonly keys: StoreKeys;
  /** This replica's id: the owner in its leases and its name among the members. */
  readonly owner: string;
  readonly ttlMs: number;
  /** Between two rounds (heartbeat, renewals, rebalancing); a third of the lease time by default. */
  readonly roundMs?: number;
  /**
   * Wait after the first heartbeat before taking anything, so that replicas started together see
   * each other and take their fair shares at once instead of one taking everything and giving most back.
   */
  readonly settleMs?: number;
  /** Monotonic milliseconds. */
  readonly now?: () => number;
}

interface Lease {
  readonly fence: WriteFence;
  /** The lease key's text while it is ours. */
  readonly text: string;
  /** Until when the lease certainly holds: the lease time from before the last renewal was sent. */
  validUntil: number;
}

/**
 * Stands for the holder of a lease this replica's id holds but this process did not take (a run
 * before a restart): not free, not ours to write. It has a space, which no instance id has.
 */
const EARLIER_RUN = 'earlier run';

/**
 * Instruments shared out among the ingest replicas by leases in Redis. Every round (a third of the
 * lease time) a replica renews its membership and its leases, then takes free instruments up to its
 * fair share or gives up what exceeds it (see `planLeases`). A lease that cannot be renewed is lost at
 * once, and one that could not be renewed because Redis was unreachable is lost when its time is up,
 * so that the replica stops writing before another may start. The fencing token in every write
 * protects the instrument from a replica that still thinks it owns it (paused, partitioned): the
 * store rejects its writes.
 */
export class LeaseOwnership implements InstrumentOwnership {
  private readonly logger = new Logger(LeaseOwnership.name);
  private readonly client: RedisClient;
  private readonly keys: StoreKeys;
  private readonly owner: string;
  private readonly ttlMs: number;
  private readonly roundMs: number;
  private readonly settleMs: number;
  private readonly now: () => number;
  private listener?: OwnershipListener;
  private listed: readonly string[] = [];
  private listedSet: ReadonlySet<string> = new Set();
  private readonly leases = new Map<string, Lease>();
  private members: readonly string[] = [];
  private unowned?: number;
  /** The listing the last complete round decided on. */
  private decided?: readonly string[];
  private startedAt = 0;
  /** The connection came up once; from then on rounds run whether Redis answers or not. */
  private connected = false;
  private timer?: NodeJS.Timeout;
  private round?: Promise<void>;
  private again = false;
  private stopped = true;
  private failing = false;

  constructor(options: LeaseOwnershipOptions) {
    this.client = options.client;
    this.keys = options.keys;
    this.owner = options.owner;
    this.ttlMs = options.ttlMs;
    this.roundMs = options.roundMs ?? Math.floor(options.ttlMs / 3);
    this.settleMs = options.settleMs ?? Math.min(this.roundMs, 1_000);
    this.now = options.now ?? (() => performance.now());
    if (!(this.roundMs > 0 && this.roundMs < this.ttlMs)) {
      throw new RangeError(`a round (${this.roundMs} ms) must be shorter than the lease (${this.ttlMs} ms)`);
    }
  }

  start(listener: OwnershipListener): void {
    this.listener = listener;
    this.stopped = false;
    this.startedAt = this.now();
    // The connection fails fast: a round before it first came up would only report Redis unreachable.
    const connected = (): void => {
      this.connected = true;
      this.trigger();
    };
    if (this.client.status === 'ready') connected();
    else this.client.once('ready', connected);
  }

  setListed(instruments: readonly string[]): void {
    this.listedSet = new Set(instruments);
    this.listed = [...this.listedSet];
    const unlisted = [...this.leases].filter(([instrument]) => !this.listedSet.has(instrument));
    for (const [instrument] of unlisted) this.lose(instrument, 'unlisted');
    void this.releaseLeases(unlisted);
    this.trigger();
  }

  fenced(instrument: string): void {
    this.lose(instrument, 'fenced');
  }

  owns(instrument: string): boolean {
    return this.leases.has(instrument);
  }

  status(): OwnershipStatus {
    return {
      settled: this.decided !== undefined && this.decided === this.listed,
      owned: this.leases.size,
      replicas: Math.max(1, this.members.length),
      unowned: this.unowned,
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
  }

  async release(): Promise<void> {
    const leases = [...this.leases];
    this.leases.clear();
    await this.releaseLeases(leases);
    try {
      await this.client.zrem(this.keys.ingestMembers, this.owner);
    } catch (error) {
      this.logger.warn(`could not leave the ingest replicas: ${(error as Error).message}`);
    }
  }

  /** Runs a round now, or right after the one under way. */
  private trigger(): void {
    if (this.stopped || !this.connected) return;
    if (this.round) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.round = this.runRound().finally(() => {
      this.round = undefined;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.trigger();
        return;
      }
      const settling = this.startedAt + this.settleMs - this.now();
      this.timer = setTimeout(() => this.trigger(), settling > 0 ? settling : this.roundMs);
    });
  }

  private async runRound(): Promise<void> {
    const started = this.now();
    const listed = this.listed;
    try {
      this.members = (
        await HEARTBEAT.runAll(this.client, [heartbeatCall(this.keys, this.owner, this.ttlMs)])
      )[0] as string[];
      await this.renew();
      if (started < this.startedAt + this.settleMs || this.stopped) return;
      const holders = await this.readHolders(listed);
      const plan = planLeases({ self: this.owner, members: this.members, listed, holders });
      const released = plan.release.flatMap((instrument) => {
        const lease = this.leases.get(instrument);
        return lease ? [[instrument, lease] as const] : [];
      });
      for (const [instrument] of released) this.lose(instrument, 'rebalanced');
      await this.releaseLeases(released);
      const acquired = await this.acquire(plan.acquire);
      const free = listed.filter((instrument) => holders.get(instrument) === undefined).length;
      this.unowned = free - acquired;
      this.decided = listed;
      if (this.failing) this.logger.log('leases renewed again');
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.logger.warn(`leases not renewed, Redis unreachable: ${(error as Error).message}`);
      this.failing = true;
      this.expireLocally();
    }
  }

  private async renew(): Promise<void> {
    const owned = [...this.leases];
    if (owned.length === 0) return;
    const sent = this.now();
    const replies = await RENEW_LEASE.runAll(
      this.client,
      owned.map(([instrument, lease]) => renewCall(this.keys, instrument, lease.text, this.ttlMs)),
    );
    owned.forEach(([instrument, lease], index) => {
      if (this.leases.get(instrument) !== lease) return;
      if (replies[index] === 1) lease.validUntil = sent + this.ttlMs;
      else this.lose(instrument, 'lost');
    });
  }

  /** Takes the free instruments it can; returns how many it took. */
  private async acquire(instruments: readonly string[]): Promise<number> {
    if (instruments.length === 0) return 0;
    const sent = this.now();
    const tokens = await ACQUIRE_LEASE.runAll(
      this.client,
      instruments.map((instrument) => acquireCall(this.keys, instrument, this.owner, this.ttlMs)),
    );
    let taken = 0;
    const unwanted: [string, Lease][] = [];
    instruments.forEach((instrument, index) => {
      const token = Number(tokens[index]);
      if (!(token > 0)) return;
      taken++;
      const fence = { owner: this.owner, token };
      const lease: Lease = { fence, text: encodeLease(fence), validUntil: sent + this.ttlMs };
      // Unlisted or shut down while the lease was being taken.
      if (this.stopped || !this.listedSet.has(instrument)) {
        unwanted.push([instrument, lease]);
        return;
      }
      this.leases.set(instrument, lease);
      this.listener?.acquired(instrument, fence);
    });
    await this.releaseLeases(unwanted);
    return taken;
  }

  /** The holder of each listed instrument's lease; undefined when free. */
  private async readHolders(instruments: readonly string[]): Promise<Map<string, string | undefined>> {
    const keys = instruments.map((instrument) => this.keys.instrument(instrument).lease);
    const texts = await getAll(this.client, keys);
    const holders = new Map<string, string | undefined>();
    instruments.forEach((instrument, index) => {
      const text = texts[index];
      const holder = text === null ? undefined : (decodeLease(text)?.owner ?? text);
      // A lease of this id that this process did not take is not ours to write: it runs out by itself.
      const earlier = holder === this.owner && this.leases.get(instrument)?.text !== text;
      holders.set(instrument, earlier ? EARLIER_RUN : holder);
    });
    return holders;
  }

  private async releaseLeases(leases: readonly (readonly [string, Lease])[]): Promise<void> {
    if (leases.length === 0) return;
    try {
      await RELEASE_LEASE.runAll(
        this.client,
        leases.map(([instrument, lease]) => releaseCall(this.keys, instrument, lease.text)),
      );
    } catch (error) {
      // The leases run out by themselves.
      this.logger.warn(`leases not released: ${(error as Error).message}`);
    }
  }

  /** Without word from Redis, a lease whose time is up may be another replica's already. */
  private expireLocally(): void {
    const now = this.now();
    for (const [instrument, lease] of [...this.leases]) {
      if (lease.validUntil <= now) this.lose(instrument, 'lost');
    }
  }

  private lose(instrument: string, reason: Parameters<OwnershipListener['lost']>[1]): void {
    if (!this.leases.delete(instrument)) return;
    this.listener?.lost(instrument, reason);
  }
}
