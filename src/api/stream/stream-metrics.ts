import { Counter, Gauge, Registry } from 'prom-client';
import { StreamReply } from './stream-reply';

/** The kinds of channel, as the subscriptions gauge labels them. */
const CHANNEL_KINDS = ['book', 'trades', 'candles', 'ticker'] as const;
type ChannelKind = (typeof CHANNEL_KINDS)[number];

const REPLY_TYPES: readonly StreamReply['type'][] = [
  'subscribed',
  'unsubscribed',
  'error',
  'pong',
  'heartbeat',
  'shutdown',
  'snapshot',
  'update',
  'status',
  'trades',
  'candle',
  'ticker',
];

/** What the metrics read of an open connection when Prometheus scrapes. */
export interface OpenConnection {
  channelNames(): Iterable<string>;
}

/**
 * The live stream's metrics. A frame sent only bumps a plain number (the send itself serialises the
 * frame, which costs far more); prom-client's metrics are filled from them when Prometheus scrapes,
 * and the gauges are read off the open connections then.
 */
export class StreamMetrics {
  private readonly sentByType = new Map<string, number>(REPLY_TYPES.map((type) => [type, 0]));
  private readonly errorsByCode = new Map<string, number>();
  private readonly conflationsByKind = new Map<string, number>([
    ['book', 0],
    ['trades', 0],
  ]);
  private readonly refusalsByStatus = new Map<string, number>();
  private slowCloses = 0;

  constructor(registry: Registry, connections: () => Iterable<OpenConnection>) {
    new Gauge({
      name: 'mdg_stream_connections',
      help: 'Open /stream connections.',
      registers: [registry],
      collect() {
        this.set([...connections()].length);
      },
    });
    new Gauge({
      name: 'mdg_stream_subscriptions',
      help: 'Channels followed by the open /stream connections, by kind (book, trades, candles, ticker).',
      labelNames: ['kind'],
      registers: [registry],
      collect() {
        const counts = new Map<ChannelKind, number>(CHANNEL_KINDS.map((kind) => [kind, 0]));
        for (const connection of connections())
          for (const name of connection.channelNames()) {
            const dot = name.indexOf('.');
            const kind = (dot < 0 ? name : name.slice(0, dot)) as ChannelKind;
            counts.set(kind, (counts.get(kind) ?? 0) + 1);
          }
        for (const [kind, count] of counts) this.set({ kind }, count);
      },
    });
    const counter = (name: string, help: string, label: string, counts: Map<string, number>) =>
      new Counter({
        name,
        help,
        labelNames: [label],
        registers: [registry],
        collect() {
          this.reset();
          for (const [value, count] of counts) this.inc({ [label]: value }, count);
        },
      });
    counter(
      'mdg_stream_messages_sent_total',
      'Frames handed to /stream connections, by type.',
      'type',
      this.sentByType,
    );
    counter(
      'mdg_stream_errors_sent_total',
      'Error frames sent to /stream connections, by code.',
      'code',
      this.errorsByCode,
    );
    counter(
      'mdg_stream_conflations_total',
      "Times a /stream connection's waiting messages of a channel were dropped because it fell more than the maxBacklog limit behind: for one snapshot (book) or resyncing (trades).",
      'kind',
      this.conflationsByKind,
    );
    counter(
      'mdg_stream_upgrade_refusals_total',
      'Websocket upgrades refused, by HTTP status (404 another path, 429 too many connections of one address, 503 stopping).',
      'status',
      this.refusalsByStatus,
    );
    const slowCloses = () => this.slowCloses;
    new Counter({
      name: 'mdg_stream_slow_closes_total',
      help: '/stream connections closed with 4008 for staying behind the maxBehindMs limit.',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(slowCloses());
      },
    });
  }

  sent(reply: StreamReply): void {
    this.sentByType.set(reply.type, (this.sentByType.get(reply.type) ?? 0) + 1);
    if (reply.type === 'error')
      this.errorsByCode.set(reply.code, (this.errorsByCode.get(reply.code) ?? 0) + 1);
  }

  conflated(kind: 'book' | 'trades'): void {
    this.conflationsByKind.set(kind, (this.conflationsByKind.get(kind) ?? 0) + 1);
  }

  closedTooSlow(): void {
    this.slowCloses++;
  }

  refusedUpgrade(status: number): void {
    const key = String(status);
    this.refusalsByStatus.set(key, (this.refusalsByStatus.get(key) ?? 0) + 1);
  }
}
