import { HubConnection, ISubscription } from '@microsoft/signalr';
import { BookMessage } from '../../market/book-update';
import { BookItem, bookMessageOf, MalformedBookItemError } from './book-item-codec';
import { BookListener, BookSubscription } from './book-subscription';
import { HubClientLogger } from './hub-client-logger';

/** What a book stream needs from the client that owns the connection. */
export interface BookStreamHost {
  /** Opens the stream on the current connection when a start slot is free (see StreamStarter). */
  requestOpen(stream: BookStream): void;
  /** The stream's first item arrived, or it failed: its start slot is free. */
  started(stream: BookStream): void;
  /** The wait before reopening a stream that failed `failures` times in a row (0 the first time). */
  retryDelay(failures: number): number;
  now(): number;
  readonly logger: HubClientLogger;
  countRestart(): void;
  /** An item that is no valid book was skipped (counted and logged by the host). */
  rejected(stream: BookStream, error: MalformedBookItemError): void;
  forget(stream: BookStream): void;
}

interface OpenStream {
  readonly connection: HubConnection;
  readonly subscription: ISubscription<BookItem>;
}

/**
 * One instrument's `Book` stream as the client keeps it: opened on the current connection, and
 * opened again whenever it breaks. The official client errors every stream when its connection
 * drops, and streams are not restored by its reconnect, so this object outlives them all.
 */
export class BookStream implements BookSubscription {
  private open?: OpenStream;
  /** Bumped whenever the current stream is given up, so that late callbacks of old streams are ignored. */
  private generation = 0;
  private openedBefore = false;
  private awaitingFirstItem = false;
  private failures = 0;
  private retryTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly instrument: string,
    private readonly listener: BookListener,
    private readonly host: BookStreamHost,
  ) {}

  /** Opens the stream on `connection` unless it is open there already. */
  openOn(connection: HubConnection): void {
    if (this.closed || this.open?.connection === connection) return;
    this.cancelRetry();
    this.dispose();
    if (this.openedBefore) this.host.countRestart();
    this.openedBefore = true;
    this.awaitingFirstItem = true;
    const generation = this.generation;
    const isCurrent = () => generation === this.generation && !this.closed;
    const subscription = connection.stream<BookItem>('Book', this.instrument).subscribe({
      next: (item) => {
        if (isCurrent()) this.receive(item);
      },
      error: (error: unknown) => {
        if (isCurrent()) this.interrupt(`Book stream failed: ${describe(error)}`);
      },
      complete: () => {
        if (isCurrent()) this.interrupt('Book stream completed by the server');
      },
    });
    this.open = { connection, subscription };
    this.notify(() => this.listener.onOpened?.());
  }

  restart(): void {
    if (this.closed) return;
    this.cancelRetry();
    this.dispose();
    this.failures = 0;
    this.awaitingFirstItem = false;
    this.host.started(this);
    this.host.requestOpen(this);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.cancelRetry();
    this.dispose();
    this.host.forget(this);
  }

  /** Drops the stream without telling the listener, as the client stops; `openOn` resumes it. */
  suspend(): void {
    this.cancelRetry();
    this.dispose();
  }

  private receive(item: BookItem): void {
    if (this.awaitingFirstItem) {
      this.awaitingFirstItem = false;
      this.host.started(this);
    }
    let message: BookMessage;
    try {
      message = bookMessageOf(item, this.host.now(), this.instrument);
    } catch (error) {
      if (!(error instanceof MalformedBookItemError)) throw error;
      this.host.rejected(this, error);
      this.notify(() => this.listener.onMalformed(error));
      return;
    }
    this.failures = 0;
    this.notify(() => this.listener.onMessage(message));
  }

  private interrupt(reason: string): void {
    this.open = undefined;
    this.generation += 1;
    this.failures += 1;
    this.awaitingFirstItem = false;
    this.host.started(this);
    this.host.logger.debug?.(`${this.instrument}: ${reason}`);
    this.notify(() => this.listener.onInterrupted(reason));
    if (this.closed) return;
    // On a dropped connection the reconnect reopens the stream sooner; otherwise this timer does.
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = undefined;
        this.host.requestOpen(this);
      },
      this.host.retryDelay(this.failures - 1),
    );
  }

  private dispose(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    this.generation += 1;
    // Sends CancelInvocation while connected; the official client swallows the failure otherwise.
    open.subscription.dispose();
  }

  private cancelRetry(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  /** A listener that throws must not break the stream or the official client's message loop. */
  private notify(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.host.logger.warn(`${this.instrument}: Book listener failed: ${describe(error)}`);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
