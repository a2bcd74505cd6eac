import Redis from 'ioredis';
import { StoreKeys } from '../../../src/store/keys';
import { decodeLease } from '../../../src/store/lease-value';
import { WriteFence } from '../../../src/store/state-store';
import { MetricSample, readMetrics, sampleValue } from '../../support/metrics-text';
import { GatewayProcess } from './gateway-process';

/** What a test sees of the ingest replicas: the leases in Redis and what each replica says it owns. */
export class ClusterView {
  private readonly keys = new StoreKeys();

  constructor(private readonly redis: Redis) {}

  /** The lease of each instrument: its owner and fencing token, undefined when free. */
  async leases(instruments: readonly string[]): Promise<Map<string, WriteFence | undefined>> {
    const texts = await Promise.all(
      instruments.map((instrument) => this.redis.get(this.keys.instrument(instrument).lease)),
    );
    return new Map(instruments.map((instrument, index) => [instrument, decodeLease(texts[index] ?? '')]));
  }

  /** The instruments each replica holds the lease of, by replica name. */
  async ownersOf(instruments: readonly string[]): Promise<Map<string, string[]>> {
    const owned = new Map<string, string[]>();
    for (const [instrument, lease] of await this.leases(instruments)) {
      if (!lease) continue;
      owned.set(lease.owner, [...(owned.get(lease.owner) ?? []), instrument]);
    }
    return owned;
  }

  /**
   * Every instrument is leased to exactly one of `replicas`, and each replica ingests exactly the
   * instruments it holds the lease of, live: no instrument without an owner, none with two.
   */
  async exactlyOneLiveOwner(
    instruments: readonly string[],
    replicas: readonly GatewayProcess[],
  ): Promise<{ ok: boolean; detail: string }> {
    const leases = await this.leases(instruments);
    const names = replicas.map((replica) => replica.name);
    const free = instruments.filter((instrument) => !names.includes(leases.get(instrument)?.owner ?? ''));
    if (free.length > 0) return { ok: false, detail: `without a live replica's lease: ${free.join(', ')}` };
    for (const replica of replicas) {
      const leased = instruments.filter((instrument) => leases.get(instrument)!.owner === replica.name);
      const samples = await readMetrics(replica.url);
      const ingested = ingestedInstruments(samples);
      if (ingested.join() !== [...leased].sort().join())
        return {
          ok: false,
          detail: `${replica.name} ingests ${ingested.join()} but leases ${leased.join()}`,
        };
      const notLive = leased.filter(
        (instrument) => sampleValue(samples, 'mdg_book_sync_state', { instrument, state: 'live' }) !== 1,
      );
      if (notLive.length > 0) return { ok: false, detail: `${replica.name}: not live yet ${notLive.join()}` };
    }
    return { ok: true, detail: '' };
  }
}

/** The instruments a replica has a pipeline for (its sync state gauge lists exactly those). */
export function ingestedInstruments(samples: readonly MetricSample[]): string[] {
  const names = samples
    .filter((sample) => sample.name === 'mdg_book_sync_state')
    .map((sample) => sample.labels.instrument);
  return [...new Set(names)].sort();
}

/** The sum of a counter over its samples with these labels (e.g. every `result`). */
export function counterTotal(
  samples: readonly MetricSample[],
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number {
  return samples
    .filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}
