import Redis from 'ioredis';
import { StoreKeys } from '../../src/store/keys';
import { decodeLease } from '../../src/store/lease-value';
import { sleep } from '../support/fault-run';

const SAMPLE_INTERVAL_MS = 100;

/** A sample not answered within this is dropped: an answer from a stalled primary comes too late to place in time. */
const SAMPLE_TIMEOUT_MS = 500;

/**
 * After an ingest process is killed or started, or the live members change otherwise (entries that
 * ran out while the primary was away), the instruments are shared out again among the live ones:
 * leases are released and taken by others for a while (a few lease times).
 */
const REBALANCE_WINDOW_MS = 12_000;

/**
 * Why a lease changed hands, as seen from outside:
 * - `ran-out`: the new owner was first seen after the old lease could have expired;
 * - `removed`: the key was seen absent before then (released by its owner, or lost with Redis's data);
 * - `rebalanced`: neither, but an ingest process had been killed or started, or the live members
 *   had changed, just before;
 * - `unexplained`: taken while the old lease still ran, with no reason in sight.
 */
export type OwnerChangeCause = 'ran-out' | 'removed' | 'rebalanced' | 'unexplained';

export interface OwnerChange {
  readonly instrument: string;
  readonly at: string;
  /** `owner#token` before and after. */
  readonly from: string;
  readonly to: string;
  readonly cause: OwnerChangeCause;
  /** What was going on (the fault). */
  readonly context: string;
  /** The port of the node read when the old owner was last seen, and when the new one was first seen. */
  readonly readFrom: string;
}

export interface OwnerFigures {
  readonly samples: number;
  /** Samples that failed or timed out (the primary down or stalled). */
  readonly failedSamples: number;
  /**
   * Samples left out because the node read was not the primary every Sentinel named: a demoted
   * primary before they turned it into a replica (what it holds then is discarded when it
   * resynchronises), or a failover still spreading among them.
   */
  readonly offPrimarySamples: number;
  /** Per instrument: how many owners (process names) held it, and how many times it changed hands. */
  readonly instruments: Readonly<Record<string, { readonly owners: number; readonly changes: number }>>;
  readonly changesByCause: Readonly<Record<OwnerChangeCause, number>>;
  /** Changes of hands by the fault going on (`none` between faults). */
  readonly changesByContext: Readonly<Record<string, number>>;
  /** Leases whose fencing token was below one seen before for the instrument: a lease that came back. */
  readonly tokenRegressions: readonly string[];
  /** Every change that is not `ran-out`, the first 50. */
  readonly notableChanges: readonly OwnerChange[];
}

interface Holder {
  readonly owner: string;
  readonly token: number;
  /** The port of the node the sample that last saw it was read from. */
  port: number | undefined;
  /** Local time before the sample that saw it last was sent, plus the lease's PTTL then: its earliest expiry. */
  earliestExpiry: number;
}

interface InstrumentTrack {
  holder?: Holder;
  /** The key was seen absent since the holder was last seen. */
  seenAbsent: boolean;
  readonly owners: Set<string>;
  changes: number;
  maxToken: number;
}

/** Where the Sentinels say the primary is, asked at each sample. */
export interface NamedPrimary {
  /** The port of the node every Sentinel names, or `undefined` while they disagree or one is silent. */
  port(): Promise<number | undefined>;
  close(): void;
}

/**
 * Samples every instrument's lease from the primary every 100 ms through the run. Fencing makes a
 * write land only while the lease names its writer, so two writers at once would show as a lease
 * taken while the previous one still ran; the watch files every change of hands under its cause
 * and counts those it cannot explain, and any fencing token that went back.
 */
export class LeaseOwnerWatch {
  private readonly keys = new StoreKeys();
  private readonly tracks = new Map<string, InstrumentTrack>();
  private readonly changes: OwnerChange[] = [];
  private readonly changesByCause: Record<OwnerChangeCause, number> = {
    'ran-out': 0,
    removed: 0,
    rebalanced: 0,
    unexplained: 0,
  };
  private readonly tokenRegressions: string[] = [];
  private lastMembershipChange = Number.NEGATIVE_INFINITY;
  /** The ingest members whose entries had not run out at the last sample, sorted and joined. */
  private liveMembers: string | undefined;
  /** Each member's expiry as last seen: one that passed before a later sample ran out meanwhile. */
  private readonly memberExpiries = new Map<string, number>();
  private samples = 0;
  private failedSamples = 0;
  private offPrimarySamples = 0;
  private running: Promise<void> | undefined;
  private stopped = false;

  /**
   * `namedPrimary` gives the port of the node the Sentinels name as primary; without it (a standalone
   * Redis) every sample counts.
   */
  constructor(
    private readonly client: Redis,
    private readonly instruments: readonly string[],
    private readonly context: () => string,
    private readonly namedPrimary?: NamedPrimary,
  ) {
    for (const instrument of instruments)
      this.tracks.set(instrument, { seenAbsent: false, owners: new Set(), changes: 0, maxToken: -1 });
  }

  /**
   * Redis is down and will come back empty: every lease is lost with its data, as if seen absent, even
   * when the next sample already finds it taken again.
   */
  dataLost(): void {
    for (const track of this.tracks.values()) track.seenAbsent = true;
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** An ingest process is being killed or has just started: leases may move for a while. */
  membershipChanged(): void {
    this.lastMembershipChange = Date.now();
  }

  async stop(): Promise<OwnerFigures> {
    this.stopped = true;
    await this.running;
    this.client.disconnect();
    this.namedPrimary?.close();
    return this.figures();
  }

  figures(): OwnerFigures {
    return {
      samples: this.samples,
      failedSamples: this.failedSamples,
      offPrimarySamples: this.offPrimarySamples,
      instruments: Object.fromEntries(
        [...this.tracks].map(([instrument, track]) => [
          instrument,
          { owners: track.owners.size, changes: track.changes },
        ]),
      ),
      changesByCause: { ...this.changesByCause },
      changesByContext: this.changes.reduce<Record<string, number>>((counts, change) => {
        counts[change.context] = (counts[change.context] ?? 0) + 1;
        return counts;
      }, {}),
      tokenRegressions: [...this.tokenRegressions],
      notableChanges: this.changes.filter((change) => change.cause !== 'ran-out').slice(0, 50),
    };
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      await this.sample();
      await sleep(SAMPLE_INTERVAL_MS);
    }
  }

  private async sample(): Promise<void> {
    const sentAt = Date.now();
    const pipeline = this.client.pipeline();
    for (const instrument of this.instruments) {
      const lease = this.keys.instrument(instrument).lease;
      pipeline.get(lease);
      pipeline.pttl(lease);
    }
    pipeline.zrange(this.keys.ingestMembers, '0', '-1', 'WITHSCORES');
    const [replies, named] = await Promise.all([
      Promise.race([pipeline.exec().catch(() => null), sleep(SAMPLE_TIMEOUT_MS).then(() => null)]),
      this.namedPrimary?.port(),
    ]);
    if (!replies || replies.some(([error]) => error) || Date.now() - sentAt > SAMPLE_TIMEOUT_MS) {
      this.failedSamples += 1;
      return;
    }
    const port = this.client.stream?.remotePort;
    if (this.namedPrimary && port !== named) {
      this.offPrimarySamples += 1;
      return;
    }
    this.samples += 1;
    const seenAt = Date.now();
    this.observeMembers(replies[2 * this.instruments.length][1] as string[], sentAt, seenAt);
    this.instruments.forEach((instrument, index) => {
      const text = replies[2 * index][1] as string | null;
      const pttl = replies[2 * index + 1][1] as number;
      this.observe(instrument, text === null ? undefined : decodeLease(text), { sentAt, seenAt, pttl, port });
    });
  }

  /**
   * The members' set changed when the live ones differ from the last sample's, and also when one ran
   * out and came back between two samples the watch counted (unseen while the primary was away): the
   * others may have shared out its instruments, and share them again now.
   */
  private observeMembers(flat: readonly string[], sentAt: number, seenAt: number): void {
    const live: string[] = [];
    let lapsed = false;
    for (let index = 0; index < flat.length; index += 2) {
      const member = flat[index];
      const expiry = Number(flat[index + 1]);
      if (expiry >= sentAt) live.push(member);
      if ((this.memberExpiries.get(member) ?? expiry) < sentAt) lapsed = true;
      this.memberExpiries.set(member, expiry);
    }
    const members = live.sort().join(',');
    if (lapsed || (this.liveMembers !== undefined && members !== this.liveMembers))
      this.lastMembershipChange = seenAt;
    this.liveMembers = members;
  }

  private observe(
    instrument: string,
    lease: { owner: string; token: number } | undefined,
    sample: { sentAt: number; seenAt: number; pttl: number; port: number | undefined },
  ): void {
    const { sentAt, seenAt, pttl, port } = sample;
    const track = this.tracks.get(instrument)!;
    if (!lease) {
      track.seenAbsent = true;
      return;
    }
    const earliestExpiry = pttl >= 0 ? sentAt + pttl : Number.POSITIVE_INFINITY;
    const previous = track.holder;
    if (previous && previous.owner === lease.owner && previous.token === lease.token) {
      previous.earliestExpiry = earliestExpiry;
      previous.port = port;
      track.seenAbsent = false;
      return;
    }
    track.owners.add(lease.owner);
    if (lease.token < track.maxToken)
      this.tokenRegressions.push(
        `${new Date(seenAt).toISOString()} ${instrument}: ${lease.owner}#${lease.token} after token ${track.maxToken}`,
      );
    track.maxToken = Math.max(track.maxToken, lease.token);
    if (previous) {
      const cause = this.causeOf(previous, track.seenAbsent, seenAt);
      track.changes += 1;
      this.changesByCause[cause] += 1;
      this.changes.push({
        instrument,
        at: new Date(seenAt).toISOString(),
        from: `${previous.owner}#${previous.token}`,
        to: `${lease.owner}#${lease.token}`,
        cause,
        context: this.context(),
        readFrom: previous.port === port ? String(port) : `${previous.port} → ${port}`,
      });
    }
    track.holder = { owner: lease.owner, token: lease.token, earliestExpiry, port };
    track.seenAbsent = false;
  }

  private causeOf(previous: Holder, seenAbsent: boolean, seenAt: number): OwnerChangeCause {
    if (seenAt >= previous.earliestExpiry) return 'ran-out';
    if (seenAbsent) return 'removed';
    if (seenAt - this.lastMembershipChange <= REBALANCE_WINDOW_MS) return 'rebalanced';
    return 'unexplained';
  }
}
