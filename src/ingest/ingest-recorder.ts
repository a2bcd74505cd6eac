import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { instanceId } from '../config/instance-id';
import { Checkpoint, RecordedItem } from '../recording/recording-format';
import { pruneRecordings } from '../recording/recording-retention';
import { RecordingWriter } from '../recording/recording-writer';
import { InstrumentWrite } from '../store/state-store';
import { GatewayClient } from '../upstream/gateway/gateway-client';
import { frameNamed } from '../upstream/gateway/gateway-frame';
import { HubClient } from '../upstream/hub/hub-client';
import { UpstreamTap } from '../upstream/upstream-tap';
import { IngestedInstruments } from './ingested-instruments';

const HOUR_MS = 3_600_000;
const MB = 1_048_576;
/** A file a period: short enough that book-at replays little, from the checkpoint opening it. */
const FILE_MS = 10 * 60_000;
/** Trades each checkpoint carries of a market, so that a file answers book-at's last trades alone. */
const CHECKPOINT_TRADES = 50;
/** A crash loses at most this much of the recording. */
const FLUSH_MS = 1_000;
const PRUNE_EVERY_MS = 60_000;

/**
 * With RECORD_DIR set, records what this process receives from the exchange (through the UpstreamTap),
 * when each feed went down and came back, and each change of a market's listing figures as written to
 * the store, into files of ten minutes that open with a checkpoint of every market held (see docs/recordings.md).
 */
@Injectable()
export class IngestRecorder {
  private readonly logger = new Logger(IngestRecorder.name);
  private writer?: RecordingWriter;
  private readonly stops: (() => void)[] = [];
  private pruneTimer?: NodeJS.Timeout;
  /** Each market's listing figures as last recorded, their JSON and when. */
  private readonly figures = new Map<string, { readonly at: number; readonly json: string }>();
  private lastError?: string;
  /** The gateway's instrument list as last received: its trade frames name markets by its ids. */
  private instrumentList?: string;
  /** Whether each feed was last recorded up; a recording starts with both down until they connect. */
  private readonly feedUp = new Map<'hub' | 'gateway', boolean>();

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(UpstreamTap) private readonly tap: UpstreamTap,
    @Inject(HubClient) private readonly hub: HubClient,
    @Inject(GatewayClient) private readonly gateway: GatewayClient,
    @Inject(IngestedInstruments) private readonly instruments: IngestedInstruments,
  ) {}

  start(): void {
    const dir = this.config.RECORD_DIR;
    if (dir === undefined || this.writer) return;
    const writer = new RecordingWriter({
      dir,
      process: instanceId(this.config),
      rotateMs: FILE_MS,
      flushMs: FLUSH_MS,
      checkpoint: () => this.checkpoint(),
      onError: (error) => this.failed(error),
    });
    this.writer = writer;
    this.stops.push(
      this.tap.attach({
        hub: (record, instrument, at) => writer.write({ at, kind: 'hub', instrument, data: record }),
        frame: (text, at) => {
          if (frameNamed(text, 'GetInstruments')) this.instrumentList = text;
          writer.write({ at, kind: 'frame', data: text });
        },
        rest: (path, text, at) => writer.write({ at, kind: 'rest', source: path, data: text }),
      }),
      this.hub.onStateChange((state) => this.gap('hub', state === 'connected')),
      this.gateway.onStateChange((state) => this.gap('gateway', state === 'connected')),
    );
    this.prune();
    this.pruneTimer = setInterval(() => this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    this.logger.log(`recording into ${dir}`);
  }

  /** The writes the store took: each market whose listing figures changed is recorded. */
  published(writes: readonly InstrumentWrite[]): void {
    const writer = this.writer;
    if (!writer) return;
    const at = Date.now();
    for (const { instrument, head } of writes) {
      const figures = JSON.stringify({
        stats: head.stats,
        lastTrade: head.lastTrade,
        bestBid: head.bestBid,
        bestAsk: head.bestAsk,
      });
      if (this.figures.get(instrument)?.json === figures) continue;
      this.figures.set(instrument, { at, json: figures });
      writer.write({ at, kind: 'published', instrument, data: figures });
    }
  }

  async stop(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    clearInterval(this.pruneTimer);
    await this.writer?.close();
    this.writer = undefined;
  }

  /**
   * Every book with its newest trades and last published figures, then what a reader of this file
   * alone needs of the sessions: the gateway's instrument list and the feeds down since an earlier file.
   */
  private checkpoint(): RecordedItem[] {
    const at = Date.now();
    const books = this.instruments.pipelines().map((pipeline): RecordedItem => {
      const published = this.figures.get(pipeline.instrument);
      const checkpoint: Checkpoint = {
        ...pipeline.bookNow(),
        trades: pipeline.newestTrades(CHECKPOINT_TRADES),
        ...(published ? { published: { at: published.at, figures: JSON.parse(published.json) } } : {}),
      };
      return { at, kind: 'checkpoint', instrument: pipeline.instrument, data: JSON.stringify(checkpoint) };
    });
    const down = [...this.feedUp]
      .filter(([, up]) => !up)
      .map(([feed]): RecordedItem => ({ at, kind: 'gap', source: feed, data: 'down' }));
    const list = this.instrumentList;
    return [...books, ...(list ? [{ at, kind: 'frame' as const, data: list }] : []), ...down];
  }

  /** A feed down or up again; the clients report every step of a reconnect, which is one gap. */
  private gap(feed: 'hub' | 'gateway', up: boolean): void {
    if ((this.feedUp.get(feed) ?? false) === up) return;
    this.feedUp.set(feed, up);
    this.writer?.write({ at: Date.now(), kind: 'gap', source: feed, data: up ? 'up' : 'down' });
  }

  private prune(): void {
    try {
      const removed = pruneRecordings(
        this.config.RECORD_DIR!,
        { maxAgeMs: this.config.RECORD_RETENTION_HOURS * HOUR_MS, maxBytes: this.config.RECORD_MAX_MB * MB },
        Date.now(),
        this.writer?.path,
      );
      if (removed.length > 0)
        this.logger.log(`recordings past their retention removed: ${removed.join(', ')}`);
    } catch (error) {
      this.failed(error as Error);
    }
  }

  /** Logged once for each new message: a full disk would otherwise log every write. */
  private failed(error: Error): void {
    if (error.message === this.lastError) return;
    this.lastError = error.message;
    this.logger.warn(`recording: ${error.message}`);
  }
}
