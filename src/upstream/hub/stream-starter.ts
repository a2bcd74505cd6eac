import { HubConnection } from '@microsoft/signalr';

/** What the starter needs of a stream. */
export interface StartableStream {
  openOn(connection: HubConnection): void;
}

/**
 * Opens book streams a few at a time. Each stream starts with a full-depth snapshot; hundreds
 * opened in one burst make the server queue hundreds of snapshots on one socket at once, which a
 * server may answer by dropping the connection (and every reconnect would repeat the burst). A
 * stream holds its slot until its first item arrives, it fails, or `startTimeoutMs` passes.
 */
export class StreamStarter<S extends StartableStream> {
  private readonly queue = new Set<S>();
  private readonly starting = new Map<S, NodeJS.Timeout>();

  constructor(
    private readonly connected: () => HubConnection | undefined,
    private readonly maxStarting: number,
    private readonly startTimeoutMs: number,
  ) {}

  /** Queues the stream to be opened on the connection as soon as a slot is free (once, if it is starting already). */
  request(stream: S): void {
    if (this.starting.has(stream)) return;
    this.queue.add(stream);
    this.pump();
  }

  /** The stream received its first item or failed: its slot is free. */
  started(stream: S): void {
    const timer = this.starting.get(stream);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.starting.delete(stream);
    this.pump();
  }

  forget(stream: S): void {
    this.queue.delete(stream);
    this.started(stream);
  }

  /** The connection is gone: nothing queued or starting belongs to the next one. */
  reset(): void {
    for (const timer of this.starting.values()) clearTimeout(timer);
    this.starting.clear();
    this.queue.clear();
  }

  private pump(): void {
    const connection = this.connected();
    if (!connection) return;
    for (const stream of this.queue) {
      if (this.starting.size >= this.maxStarting) return;
      this.queue.delete(stream);
      this.starting.set(
        stream,
        setTimeout(() => this.started(stream), this.startTimeoutMs),
      );
      stream.openOn(connection);
    }
  }
}
