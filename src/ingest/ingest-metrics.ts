import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ResyncReason } from '../market/book-synchronizer';
import { SyncState } from '../market/sync-state';
import { InstrumentPipeline } from './instrument-pipeline';

const SYNC_STATES: readonly SyncState[] = ['syncing', 'live', 'resync'];

export interface UpstreamConnection {
  readonly name: string;
  state(): string;
  reconnects(): number;
}

/** What an operator needs to see of the ingest, per instrument and per upstream connection. */
export class IngestMetrics {
  private readonly resyncs: Counter<'instrument' | 'reason'>;
  private readonly gaps: Counter<'instrument'>;
  private readonly malformed: Counter<'instrument'>;
  private readonly barMismatches: Counter<'instrument'>;
  readonly storeWrites: Counter<'result'>;
  readonly storeWriteDuration: Histogram;

  constructor(
    registry: Registry,
    pipelines: () => Iterable<InstrumentPipeline>,
    connections: readonly UpstreamConnection[],
    now: () => number,
  ) {
    new Gauge({
      name: 'mdg_book_sync_state',
      help: 'Sync state of each instrument book: 1 for the current state, 0 for the others.',
      labelNames: ['instrument', 'state'],
      registers: [registry],
      collect() {
        this.reset();
        for (const pipeline of pipelines()) {
          for (const state of SYNC_STATES)
            this.set({ instrument: pipeline.instrument, state }, pipeline.state === state ? 1 : 0);
        }
      },
    });
    /** Seconds since `since` of each instrument, leaving out those where it has not happened (0). */
    const ageGauge = (name: string, help: string, since: (pipeline: InstrumentPipeline) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['instrument'],
        registers: [registry],
        collect() {
          this.reset();
          const at = now();
          for (const pipeline of pipelines()) {
            const time = since(pipeline);
            if (time > 0) this.set({ instrument: pipeline.instrument }, (at - time) / 1000);
          }
        },
      });
    ageGauge(
      'mdg_instrument_last_update_age_seconds',
      'Seconds since the last upstream message about the instrument (book, trades or level 1).',
      (pipeline) => pipeline.lastEventTime,
    );
    ageGauge(
      'mdg_instrument_data_age_seconds',
      'Seconds since the instrument book was last known current: a feed message, or a heartbeat while the feed is connected and the book live.',
      (pipeline) => pipeline.confirmedTime,
    );
    new Gauge({
      name: 'mdg_book_version',
      help: 'Upstream version of the instrument book as last applied.',
      labelNames: ['instrument'],
      registers: [registry],
      collect() {
        this.reset();
        for (const pipeline of pipelines())
          this.set({ instrument: pipeline.instrument }, pipeline.bookVersion);
      },
    });
    new Gauge({
      name: 'mdg_trades_in_window',
      help: 'Trades of the last 24 hours held for the instrument.',
      labelNames: ['instrument'],
      registers: [registry],
      collect() {
        this.reset();
        for (const pipeline of pipelines())
          this.set({ instrument: pipeline.instrument }, pipeline.tradeCount);
      },
    });
    new Gauge({
      name: 'mdg_upstream_connection_state',
      help: 'State of each upstream connection: 1 for the current state.',
      labelNames: ['connection', 'state'],
      registers: [registry],
      collect() {
        this.reset();
        for (const connection of connections)
          this.set({ connection: connection.name, state: connection.state() }, 1);
      },
    });
    new Gauge({
      name: 'mdg_upstream_reconnects',
      help: 'Reconnections of each upstream connection since the start.',
      labelNames: ['connection'],
      registers: [registry],
      collect() {
        for (const connection of connections)
          this.set({ connection: connection.name }, connection.reconnects());
      },
    });
    this.resyncs = new Counter({
      name: 'mdg_book_resyncs_total',
      help: 'Times an instrument book left live, by reason (gap, crossed, verify-failed, buffer-overflow, stream-reset).',
      labelNames: ['instrument', 'reason'],
      registers: [registry],
    });
    this.gaps = new Counter({
      name: 'mdg_book_gaps_total',
      help: 'Version gaps detected in an instrument book feed.',
      labelNames: ['instrument'],
      registers: [registry],
    });
    const reported = new WeakMap<InstrumentPipeline, number>();
    new Counter({
      name: 'mdg_book_stale_deltas_total',
      help: 'Book deltas dropped as duplicates or older than the book.',
      labelNames: ['instrument'],
      registers: [registry],
      collect() {
        for (const pipeline of pipelines()) {
          const stale = pipeline.counters.stale;
          const increase = stale - (reported.get(pipeline) ?? 0);
          if (increase > 0) this.inc({ instrument: pipeline.instrument }, increase);
          reported.set(pipeline, stale);
        }
      },
    });
    this.malformed = new Counter({
      name: 'mdg_upstream_malformed_messages_total',
      help: 'Upstream messages about an instrument that could not be decoded and were skipped.',
      labelNames: ['instrument'],
      registers: [registry],
    });
    this.barMismatches = new Counter({
      name: 'mdg_chart_bar_mismatches_total',
      help: "Trade-built 1-minute chart bars that differ from the exchange's candles (a minute on one side only included).",
      labelNames: ['instrument'],
      registers: [registry],
    });
    this.storeWrites = new Counter({
      name: 'mdg_store_writes_total',
      help: 'Batched writes to the state store, by result (written, failed, fenced).',
      labelNames: ['result'],
      registers: [registry],
    });
    this.storeWriteDuration = new Histogram({
      name: 'mdg_store_write_duration_seconds',
      help: "How long one batched write to the state store took; part of every change's lag, with the flush interval.",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
  }

  resync(instrument: string, reason: ResyncReason): void {
    this.resyncs.inc({ instrument, reason });
    if (reason === 'gap') this.gaps.inc({ instrument });
  }

  malformedMessage(instrument: string): void {
    this.malformed.inc({ instrument });
  }

  /** Counted after every check, zero included, so that a checked market shows up. */
  chartBarMismatches(instrument: string, bars: number): void {
    this.barMismatches.inc({ instrument }, bars);
  }
}
