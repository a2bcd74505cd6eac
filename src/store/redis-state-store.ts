import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import { MarketCatalog } from '../market/market-info';
import { Trade } from '../market/trade';
import { decodeInstrumentChange } from './instrument-change-message';
import { BOOK_READ_SCRIPT, bookReadCall, bookReadReply } from './book-read-script';
import { catalogNotice, instrumentNotice, parseCatalogNotice } from './change-notice';
import { INSTRUMENT_WRITE_SCRIPT, instrumentWriteCalls } from './instrument-write-script';
import { StoreKeys } from './keys';
import { AcknowledgedWrites } from './acknowledged-writes';
import { InstrumentFollowers } from './instrument-followers';
import { ListenerSet } from './listener-set';
import { RedisClient } from './redis-client';
import {
  closeConnection,
  createStoreRedisClient,
  reportConnectionErrors,
  StoreConnectionOptions,
} from './redis-connection';
import {
  InstrumentChange,
  ChangeSubscription,
  BookView,
  ChangeNotice,
  InstrumentHead,
  InstrumentWrite,
  IngestMember,
  OwnershipView,
  StateStore,
  StoreHealth,
  TradeTail,
  WriteOutcome,
} from './state-store';
import { describeRedisFailure, redisAddress } from './redis-failure';
import { StoreLogger } from './store-logger';
import { STALLED } from './stall-aware-redis';
import { decodeLease } from './lease-value';
import { sortBestFirst } from './store-order';
import {
  TRADE_READ_SCRIPT,
  TRADE_TAIL_SCRIPT,
  TRADE_TRIM_SCRIPT,
  tradeKeysCall,
  tradeReadReply,
  tradeTailReply,
} from './trade-read-script';

export interface RedisStateStoreOptions {
  /** Prefix of every key and channel; `mdg` by default. */
  readonly prefix?: string;
  /** Whether `close()` also closes the client given to the constructor; false by default. */
  readonly closeClient?: boolean;
  /** Where problems of background work are reported; a Nest logger by default. */
  readonly logger?: StoreLogger;
  /** How long `health()` waits for PING before it reports Redis unreachable; 2000 ms by default. */
  readonly healthTimeoutMs?: number;
  /**
   * Whether `onChange` listeners hear of instrument writes (true by default), or only of catalogue
   * writes: an ingest replica needs no more, and would otherwise be sent back every notice it writes.
   */
  readonly instrumentNotices?: boolean;
}

/**
 * The state store in Redis (standalone or Cluster); the layout is documented in `keys.ts`.
 *
 * The data connection should use `storeRedisOptions()` (or `storeClusterOptions()`), so that
 * commands fail fast while Redis is unreachable, and whoever creates it should listen to its
 * `error` events (`reportConnectionErrors()`). Change notices arrive on a second connection,
 * a duplicate of the first, subscribed to two channels only: each instrument write publishes one
 * message on the change channel, which both `onChange` and `followInstrument` listeners hear. The store notices that Redis lost its data by an epoch marker it
 * compares on every (re)connection and health check.
 */
export class RedisStateStore implements StateStore {
  readonly keys: StoreKeys;
  private readonly subscriber: RedisClient;
  private readonly subscribed: Promise<void>;
  private readonly logger: StoreLogger;
  private readonly healthTimeoutMs: number;
  private readonly closeClient: boolean;
  private readonly changeListeners: ListenerSet<ChangeNotice>;
  private readonly followers: InstrumentFollowers;
  private readonly resetListeners: ListenerSet<void>;
  /** The listeners of each followed instrument. */
  /** The epoch marker as this store last saw or wrote it. */
  private epoch: string | undefined;
  private epochCheck: Promise<void> | undefined;
  /** What this store's writes left, to find writes a failover lost. */
  private readonly acknowledged = new AcknowledgedWrites();
  /** The checks after the latest (re)connection; writes wait for them, lest one land on lost state unnoticed. */
  private reconnectionChecks: Promise<void> = Promise.resolve();
  private closed = false;
  /** Where Redis is, for messages: host and port only. */
  private readonly address: string;
  /** The connection's last error since it was last ready: why commands fail while it is down. */
  private connectionError: Error | undefined;

  /** A store with its own data connection to `url`, closed with the store. */
  static fromUrl(
    url: string,
    options: RedisStateStoreOptions & StoreConnectionOptions = {},
  ): RedisStateStore {
    const client = createStoreRedisClient(url, options);
    reportConnectionErrors(client, options.logger ?? new Logger(RedisStateStore.name), 'Redis');
    return new RedisStateStore(client, { ...options, closeClient: true });
  }

  constructor(
    private readonly client: RedisClient,
    options: RedisStateStoreOptions = {},
  ) {
    this.keys = new StoreKeys(options.prefix);
    this.logger = options.logger ?? new Logger(RedisStateStore.name);
    this.healthTimeoutMs = options.healthTimeoutMs ?? 2000;
    this.closeClient = options.closeClient ?? false;
    this.changeListeners = new ListenerSet(this.reportListenerError);
    this.followers = new InstrumentFollowers(this.reportListenerError);
    this.resetListeners = new ListenerSet(this.reportListenerError);

    this.subscriber = subscriberOf(client);
    reportConnectionErrors(this.subscriber, this.logger, 'Redis subscriber');
    this.subscriber.on('message', this.handleMessage);
    // The subscriber queues SUBSCRIBE until it is connected and repeats it after every reconnection.
    const channels = [this.keys.catalogChanges];
    if (options.instrumentNotices ?? true) channels.push(this.keys.changes);
    this.subscribed = this.subscriber.subscribe(...channels).then(() => undefined);
    this.subscribed.catch((error: unknown) =>
      this.logger.warn(`subscribing to changes failed: ${String(error)}`),
    );

    this.address = redisAddress(client);
    client.on('error', this.noteConnectionError);
    client.on('ready', this.handleReady);
    client.on(STALLED, this.dropSubscriber);
    if (client.status === 'ready') this.handleReady();
  }

  /** Resolves once both connections are up, notices are subscribed and the epoch marker is checked. */
  async ready(): Promise<void> {
    await Promise.all([untilReady(this.client), this.subscribed]);
    await this.checkEpoch();
  }

  write(batch: readonly InstrumentWrite[]): Promise<WriteOutcome[]> {
    return this.explained(async () => {
      await this.reconnectionChecks;
      const calls = instrumentWriteCalls(this.keys, batch, {
        oneWritePerCall: this.client instanceof Cluster,
      });
      const replies = await INSTRUMENT_WRITE_SCRIPT.runAll(
        this.client,
        calls.map(({ call }) => call),
      );
      const results = calls.flatMap(({ writes }, index) => writeResults(replies[index], writes));
      return batch.map((write, index) => {
        const written = results[index] === 1;
        if (written) this.acknowledged.record(write.instrument, write.head);
        else this.acknowledged.forget(write.instrument);
        return { instrument: write.instrument, result: written ? 'written' : 'fenced' };
      });
    });
  }

  writeCatalog(catalog: MarketCatalog): Promise<void> {
    return this.explained(async () => {
      const replies = await this.client
        .multi()
        .set(this.keys.catalog, JSON.stringify(catalog))
        .publish(this.keys.catalogChanges, JSON.stringify(catalogNotice(catalog.refreshedAt)))
        .exec();
      valuesOf(replies);
    });
  }

  readCatalog(): Promise<MarketCatalog | undefined> {
    return this.explained(async () => {
      const text = await this.client.get(this.keys.catalog);
      return text === null ? undefined : (JSON.parse(text) as MarketCatalog);
    });
  }

  readHeads(instruments: readonly string[]): Promise<Map<string, InstrumentHead>> {
    return this.explained(async () => {
      const unique = [...new Set(instruments)];
      const texts = await getAll(
        this.client,
        unique.map((instrument) => this.keys.instrument(instrument).head),
      );
      const heads = new Map<string, InstrumentHead>();
      unique.forEach((instrument, index) => {
        const text = texts[index];
        if (text !== null) heads.set(instrument, JSON.parse(text) as InstrumentHead);
      });
      return heads;
    });
  }

  readBook(instrument: string): Promise<BookView | undefined> {
    return this.explained(async () => {
      const keys = this.keys.instrument(instrument);
      // One script, so that the sides and the head come from between the same two writes.
      const [reply] = await BOOK_READ_SCRIPT.runAll(this.client, [bookReadCall(instrument, keys)]);
      const { bids, asks, head: headText } = bookReadReply(reply);
      if (headText === null) return undefined;
      const head = JSON.parse(headText) as InstrumentHead;
      return {
        instrument,
        version: head.bookVersion,
        updatedAt: head.bookUpdatedAt,
        syncState: head.syncState,
        bids: sortBestFirst(bids, 'bids'),
        asks: sortBestFirst(asks, 'asks'),
      };
    });
  }

  readTrades(instrument: string): Promise<Trade[]> {
    return this.explained(async () => {
      const call = tradeKeysCall(instrument, this.keys.instrument(instrument));
      const [reply] = await TRADE_READ_SCRIPT.runAll(this.client, [call]);
      return tradeReadReply(reply, instrument);
    });
  }

  readTradesFrom(instrument: string, from: number): Promise<TradeTail> {
    return this.explained(async () => {
      const call = tradeKeysCall(instrument, this.keys.instrument(instrument), [String(from)]);
      const [reply] = await TRADE_TAIL_SCRIPT.runAll(this.client, [call]);
      return tradeTailReply(reply, instrument, from);
    });
  }

  trimTrades(instruments: readonly string[], before: number): Promise<number> {
    return this.explained(async () => {
      const calls = [...new Set(instruments)].map((instrument) =>
        tradeKeysCall(instrument, this.keys.instrument(instrument), [String(before)]),
      );
      const counts = await TRADE_TRIM_SCRIPT.runAll(this.client, calls);
      return counts.reduce<number>((sum, count) => sum + Number(count), 0);
    });
  }

  onChange(listener: (notice: ChangeNotice) => void): () => void {
    return this.changeListeners.add(listener);
  }

  onReset(listener: () => void): () => void {
    return this.resetListeners.add(listener);
  }

  followInstrument(instrument: string, listener: (change: InstrumentChange) => void): ChangeSubscription {
    return {
      // The change channel's SUBSCRIBE: it carries every instrument's writes.
      ready: this.subscribed,
      close: this.followers.follow(instrument, listener),
    };
  }

  readOwnership(instruments: readonly string[]): Promise<OwnershipView> {
    return this.explained(async () => {
      const unique = [...new Set(instruments)];
      const [leases, flat] = await Promise.all([
        getAll(
          this.client,
          unique.map((instrument) => this.keys.instrument(instrument).lease),
        ),
        this.client.zrange(this.keys.ingestMembers, 0, '-1', 'WITHSCORES'),
      ]);
      const owners = new Map<string, string>();
      unique.forEach((instrument, index) => {
        const lease = decodeLease(leases[index] ?? '');
        if (lease) owners.set(instrument, lease.owner);
      });
      const members: IngestMember[] = [];
      for (let index = 0; index + 1 < flat.length; index += 2)
        members.push({ id: flat[index], expiresAt: Number(flat[index + 1]) });
      return { leased: true, owners, members };
    });
  }

  async health(): Promise<StoreHealth> {
    const started = performance.now();
    try {
      await withTimeout(this.client.ping(), this.healthTimeoutMs, 'PING timed out');
      const latencyMs = Math.round((performance.now() - started) * 1000) / 1000;
      // Also notices a FLUSHALL that came without a reconnection.
      this.checkEpoch().catch((error: unknown) => this.logger.warn(`epoch check failed: ${String(error)}`));
      return { reachable: true, latencyMs };
    } catch (error) {
      return { reachable: false, error: this.describe(error) };
    }
  }

  /** Runs a command of the store; its failure says in plain words what is wrong with Redis. */
  private async explained<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new Error(this.describe(error), { cause: error });
    }
  }

  private describe(error: unknown): string {
    return describeRedisFailure(this.address, error, this.connectionError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.client.off('ready', this.handleReady);
    this.client.off(STALLED, this.dropSubscriber);
    this.client.off('error', this.noteConnectionError);
    this.changeListeners.clear();
    this.resetListeners.clear();
    this.followers.clear();
    this.subscriber.disconnect();
    if (this.closeClient) await closeConnection(this.client);
  }

  private readonly reportListenerError = (error: unknown): void =>
    this.logger.warn(`state store listener failed: ${String(error)}`);

  private readonly noteConnectionError = (error: Error): void => {
    this.connectionError = error;
  };

  /** A path that went silent for the data connection most likely did for the subscriber as well. */
  private readonly dropSubscriber = (): void => {
    this.subscriber.disconnect(true);
  };

  private readonly handleReady = (): void => {
    this.connectionError = undefined;
    this.reconnectionChecks = this.checkEpoch()
      .then(() => this.checkAcknowledgedWrites())
      .catch((error: unknown) => this.logger.warn(`checks after reconnecting failed: ${String(error)}`));
  };

  /**
   * After a reconnection, possibly to a promoted replica: if a head no longer shows what this store
   * last wrote, writes the old primary acknowledged were lost, and writers must replace everything.
   */
  private async checkAcknowledgedWrites(): Promise<void> {
    const instruments = this.acknowledged.instruments();
    if (instruments.length === 0 || this.closed) return;
    const lost = this.acknowledged.lost(await this.readHeads(instruments));
    if (lost.length === 0 || this.closed) return;
    this.logger.warn(
      `Redis lacks acknowledged writes of ${lost.length} instrument(s) (${lost.slice(0, 5).join(', ')}), ` +
        'as after a failover to a replica that was behind; rewriting all state',
    );
    this.acknowledged.clear();
    this.resetListeners.emit();
  }

  private readonly handleMessage = (channel: string, message: string): void => {
    if (channel === this.keys.changes) {
      const change = decodeInstrumentChange(message);
      if (!change) {
        this.logger.warn(`ignored a malformed change on ${channel}: ${message.slice(0, 200)}`);
        return;
      }
      this.changeListeners.emit(instrumentNotice(change));
      this.followers.emit(change);
      return;
    }
    if (channel !== this.keys.catalogChanges) return;
    const notice = parseCatalogNotice(message);
    if (notice) this.changeListeners.emit(notice);
    else this.logger.warn(`ignored a malformed change notice: ${message.slice(0, 200)}`);
  };

  /** One check at a time; callers during a check share its outcome. */
  private checkEpoch(): Promise<void> {
    this.epochCheck ??= this.compareEpoch().finally(() => {
      this.epochCheck = undefined;
    });
    return this.epochCheck;
  }

  /**
   * A missing marker means Redis lost its data (or was never used): a new one is written and the
   * reset listeners are called. A marker different from the one this store knew means another
   * store already found it missing and wrote a new one: the data was lost all the same. A marker
   * seen for the first time is adopted.
   */
  private async compareEpoch(): Promise<void> {
    const found = await this.client.get(this.keys.epoch);
    if (found !== null && found === this.epoch) return;
    const known = this.epoch;
    if (found === null) {
      const fresh = randomUUID();
      // NX: of several stores that find the marker missing at once, one writes it and all adopt it.
      const written = await this.client.set(this.keys.epoch, fresh, 'NX');
      this.epoch = written === 'OK' ? fresh : ((await this.client.get(this.keys.epoch)) ?? fresh);
    } else {
      this.epoch = found;
    }
    if ((found === null || known !== undefined) && !this.closed) {
      this.acknowledged.clear();
      this.resetListeners.emit();
    }
  }
}

/** Keys a single MGET reads, so that one call does not hold Redis for long. */
const MGET_KEYS = 1_000;

/** The values of many keys in one round trip; on a Cluster one GET per key, as the keys span slots. */
export async function getAll(client: RedisClient, keys: readonly string[]): Promise<(string | null)[]> {
  if (keys.length === 0) return [];
  if (client instanceof Cluster) return Promise.all(keys.map((key) => client.get(key)));
  const pipeline = client.pipeline();
  for (let start = 0; start < keys.length; start += MGET_KEYS)
    pipeline.mget(keys.slice(start, start + MGET_KEYS));
  return (valuesOf(await pipeline.exec()) as (string | null)[][]).flat();
}

/** The per-write results of one script call: an array of 1 (written) and 0 (fenced), one per write. */
function writeResults(reply: unknown, writes: number): unknown[] {
  if (!Array.isArray(reply) || reply.length !== writes)
    throw new Error(`the write script answered ${String(reply)} for ${writes} writes`);
  return reply;
}

/** A second connection for SUBSCRIBE, which may queue while it connects and resends after reconnecting. */
function subscriberOf(client: RedisClient): RedisClient {
  if (client instanceof Cluster) return client.duplicate([], { enableOfflineQueue: true });
  return client.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
}

/** The values of a pipeline or transaction; rejects with the first error. */
function valuesOf(replies: [error: Error | null, value: unknown][] | null): unknown[] {
  if (!replies) throw new Error('transaction aborted');
  const failed = replies.find(([error]) => error !== null);
  if (failed) throw failed[0];
  return replies.map(([, value]) => value);
}

async function untilReady(client: RedisClient): Promise<void> {
  if (client.status === 'ready') return;
  if (client.status === 'end') throw new Error('Redis connection closed');
  await new Promise<void>((resolve, reject) => {
    const onReady = (): void => {
      client.off('end', onEnd);
      resolve();
    };
    const onEnd = (): void => {
      client.off('ready', onReady);
      reject(new Error('Redis connection closed'));
    };
    client.once('ready', onReady);
    client.once('end', onEnd);
  });
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  // When the timer wins, the command may still fail later (e.g. "Connection is closed"); that is expected.
  promise.catch(() => undefined);
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
