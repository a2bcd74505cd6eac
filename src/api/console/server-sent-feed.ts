import { Logger } from '@nestjs/common';
import type { ServerResponse } from 'node:http';

/** A reader whose socket holds this much unsent is dropped: it reconnects and starts afresh. */
const MAX_UNSENT_BYTES = 1024 * 1024;

export interface FeedTiming {
  /** A snapshot is sent at least this often, so that ages move on the page. */
  readonly heartbeatMs: number;
  /** And at most this often, however fast things change. */
  readonly minIntervalMs: number;
}

/**
 * A server-sent-events feed of whole snapshots: built once per send for every reader, sent at once
 * to a new reader, again after each change (at most every `minIntervalMs`) and every `heartbeatMs`.
 * Nothing is built while nobody reads. Browsers' EventSource reconnects by itself after the
 * `retry` the feed announces, also after the process restarted.
 */
export class ServerSentFeed {
  private readonly logger = new Logger(ServerSentFeed.name);
  private readonly readers = new Set<ServerResponse>();
  private timer?: NodeJS.Timeout;
  /** `performance.now()`: a wall clock that steps back would hold the sends off. */
  private lastSentAt = -Infinity;
  private sending?: Promise<void>;
  private sendAgain = false;
  private closed = false;
  /** The last failure logged, so that a failure that lasts (no data loaded yet) is logged once. */
  private failure?: string;

  constructor(
    private readonly name: string,
    private readonly build: () => Promise<object>,
    private readonly timing: FeedTiming,
  ) {}

  /** Takes over `response` (its status and headers not yet sent) as a reader of the feed. */
  attach(response: ServerResponse, headers: Readonly<Record<string, string | number | string[]>>): void {
    response.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // Proxies such as nginx would otherwise hold the events back.
      'x-accel-buffering': 'no',
    });
    // Shutting down: a stream that ends at once, which EventSource retries (another status would stop it).
    if (this.closed) {
      response.end('retry: 1000\n\n');
      return;
    }
    response.write('retry: 1000\n\n');
    this.readers.add(response);
    response.once('close', () => this.readers.delete(response));
    this.changed(true);
  }

  get readerCount(): number {
    return this.readers.size;
  }

  /** Something shown changed: a new snapshot soon (at once when `now`). */
  changed(now = false): void {
    if (this.readers.size === 0 || this.closed) return;
    if (this.sending) {
      this.sendAgain = true;
      return;
    }
    const wait = now ? 0 : Math.max(0, this.lastSentAt + this.timing.minIntervalMs - performance.now());
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.send(), wait);
  }

  /** Ends every reader's stream (they reconnect, to another replica once this one is gone). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const reader of this.readers) reader.end();
    this.readers.clear();
  }

  private send(): void {
    this.sending = this.build()
      .then((snapshot) => {
        const frame = `data: ${JSON.stringify(snapshot)}\n\n`;
        for (const reader of this.readers) {
          if (reader.writableLength > MAX_UNSENT_BYTES) reader.destroy();
          else reader.write(frame);
        }
      })
      .then(() => (this.failure = undefined))
      .catch((error: Error) => {
        if (error.message !== this.failure) this.logger.warn(`${this.name}: no snapshot: ${error.message}`);
        this.failure = error.message;
      })
      .finally(() => {
        this.lastSentAt = performance.now();
        this.sending = undefined;
        if (this.readers.size === 0 || this.closed) return;
        if (this.sendAgain) {
          this.sendAgain = false;
          this.changed();
        } else {
          this.timer = setTimeout(() => this.send(), this.timing.heartbeatMs);
        }
      });
  }
}
