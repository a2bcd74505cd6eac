export const DEFAULT_KEY_PREFIX = 'mdg';

/** The Redis keys of one instrument. They share the hash tag `{instrument}`, so one Cluster slot holds them all. */
export interface InstrumentKeys {
  /**
   * String: JSON of the `InstrumentHead` (version, sync state, best bid and ask, 24-hour stats,
   * newest known trade, trades revision, trade feed state, last event time). Written with every change of the instrument;
   * its absence means the instrument is unknown.
   */
  readonly head: string;
  /** Hash: price -> amount of every bid level, canonical decimal text, unordered (readers sort). */
  readonly bids: string;
  /** Hash: price -> amount of every ask level, canonical decimal text, unordered (readers sort). */
  readonly asks: string;
  /**
   * Hash of the stored trades (the last 24 hours) packed per minute but for the open minute:
   * field `{minute}` -> the minute's trades as lines `\n{id} {ms into the minute} {b|s} {price}
   * {amount}`, and fields `n`, `lo`, `hi` (count, oldest and newest minute) and `om`, `ot`, `oi`
   * (the open minute). See `trade-history.ts`.
   */
  readonly tradeHistory: string;
  /** String: the open minute's lines, which writes append to. See `trade-open-minute.ts`. */
  readonly tradeOpenMinute: string;
  /**
   * String `{token}:{owner}`, set with an expiry by the instrument's single writer. A write carrying
   * a fence is applied only while this key holds exactly that token and owner.
   */
  readonly lease: string;
  /**
   * String integer, no expiry: incremented to mint the fencing token of each new lease, so that
   * tokens only grow even when a lease expires and another owner takes it.
   */
  readonly leaseToken: string;
}

/** The Redis keys of one instrument's bar archive, under the instrument's hash tag. */
export interface BarArchiveKeys {
  /**
   * Hash of one UTC day's closed 1-minute bars: field = the hour of the day (`0`..`23`), value = that
   * hour's block (`hour-block-codec.ts`). Expires the chart retention after the day ends.
   */
  day(dayStart: number): string;
  /** Hash: the candle backfill's state, the integer fields of `BACKFILL_FIELDS` (`coveredFrom`, `sealedThrough`, ...). */
  readonly backfill: string;
}

/**
 * The one catalogue of the store's Redis keys and channels. Every key starts with the prefix
 * (default `mdg`), so several deployments can share one Redis under different prefixes.
 */
export class StoreKeys {
  /** String: JSON of the `MarketCatalog` (markets, assets, refresh time). */
  readonly catalog: string;
  /**
   * String: a random marker written when the store finds none. A missing or changed marker means
   * Redis lost its data (restarted empty or was flushed) and every writer must replace its state.
   */
  readonly epoch: string;
  /**
   * Pub/sub channel: what each instrument write changed (its head, book levels and trades added),
   * published once by the write itself (see `decodeInstrumentChange`); every API replica follows it.
   */
  readonly changes: string;
  /**
   * Pub/sub channel: JSON of the `ChangeNotice` of every catalogue write
   * (`{"kind":"catalog","refreshedAt"}`). A channel of its own, so that an ingest replica, which
   * needs only these, is not sent the thousands of instrument notices a second it writes itself.
   */
  readonly catalogChanges: string;
  /**
   * Sorted set of the live ingest replicas: member = instance id, score = when the membership runs
   * out (Redis server time, Unix milliseconds). Each replica renews its entry with its leases, and
   * drops the entries that ran out; the members share the instruments out among themselves.
   */
  readonly ingestMembers: string;
  /**
   * Pub/sub channel: JSON of an owner request (`{"kind":"verify"|"candles","instruments":[...]}`),
   * which asks the ingest replica that owns each instrument to check its book against a REST
   * snapshot or to refresh its candles.
   */
  readonly ownerRequests: string;

  constructor(readonly prefix: string = DEFAULT_KEY_PREFIX) {
    if (!/^[^\s{}]+$/.test(prefix)) {
      throw new Error(
        `invalid key prefix ${JSON.stringify(prefix)}: must be non-empty, without spaces or braces`,
      );
    }
    this.catalog = `${prefix}:catalog`;
    this.epoch = `${prefix}:epoch`;
    this.changes = `${prefix}:changes`;
    this.catalogChanges = `${prefix}:catalog-changes`;
    this.ingestMembers = `${prefix}:ingest-members`;
    this.ownerRequests = `${prefix}:owner-requests`;
  }

  /** `mdg:{btc_usdt}:head` and its siblings. */
  instrument(instrument: string): InstrumentKeys {
    const base = this.instrumentBase(instrument);
    return {
      head: `${base}:head`,
      bids: `${base}:bids`,
      asks: `${base}:asks`,
      tradeHistory: `${base}:trade-history`,
      tradeOpenMinute: `${base}:trade-open-minute`,
      lease: `${base}:lease`,
      leaseToken: `${base}:lease-token`,
    };
  }

  /** `mdg:{btc_usdt}:bars:{dayStart}` and `mdg:{btc_usdt}:bar-backfill`. */
  bars(instrument: string): BarArchiveKeys {
    const base = this.instrumentBase(instrument);
    return { day: (dayStart) => `${base}:bars:${dayStart}`, backfill: `${base}:bar-backfill` };
  }

  private instrumentBase(instrument: string): string {
    // A brace inside the tag would move the hash tag and scatter the instrument over several slots.
    if (!/^[^\s{}]+$/.test(instrument)) {
      throw new Error(
        `invalid instrument ${JSON.stringify(instrument)}: must be non-empty, without spaces or braces`,
      );
    }
    return `${this.prefix}:{${instrument}}`;
  }
}
