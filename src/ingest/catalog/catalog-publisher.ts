import { MarketCatalog } from '../../market/market-info';
import { StateStore } from '../../store/state-store';

export interface CatalogPublisherOptions {
  /** Wait before a failed write is tried again. */
  readonly retryMs: number;
  readonly onFailed: (error: Error) => void;
  readonly onStored: () => void;
}

/**
 * Keeps the newest market catalogue in the store: written when it changes, written again after a
 * failed write and whenever the store lost its contents (unless another replica put back a newer
 * one), so that the catalogue does not stay missing until the next refresh.
 */
export class CatalogPublisher {
  private latest?: MarketCatalog;
  private stored?: MarketCatalog;
  /** Bumped on every reset of the store, so that a write from before it does not count. */
  private generation = 0;
  private writing = false;
  private retryTimer?: NodeJS.Timeout;
  private stopListening?: () => void;
  private stopped = true;

  constructor(
    private readonly store: StateStore,
    private readonly options: CatalogPublisherOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.stopListening = this.store.onReset(() => {
      this.generation++;
      this.stored = undefined;
      void this.restore();
    });
  }

  stop(): void {
    this.stopped = true;
    this.stopListening?.();
    clearTimeout(this.retryTimer);
  }

  /**
   * Stores `catalog` as the newest; resolves after a try, failed or not (a failure is retried later).
   * While an earlier write is in flight, that write's loop stores this one after it.
   */
  publish(catalog: MarketCatalog): Promise<void> {
    this.latest = catalog;
    return this.persist();
  }

  /**
   * A catalogue read from the store, kept to be put back should the store lose its contents: the
   * replica that built it may be gone by then, and the next refresh a minute away.
   */
  remember(catalog: MarketCatalog): void {
    if (this.latest !== undefined && this.latest.refreshedAt >= catalog.refreshedAt) return;
    this.latest = catalog;
    this.stored = catalog;
  }

  /**
   * After the store lost its contents: writes the newest catalogue again, unless the store holds one
   * as new already (every replica that ever refreshed holds a catalogue, most of them older ones).
   */
  private async restore(): Promise<void> {
    const latest = this.latest;
    if (latest === undefined) return;
    try {
      const stored = await this.store.readCatalog();
      if (stored && stored.refreshedAt >= latest.refreshedAt) {
        if (this.latest === latest) this.stored = latest;
        return;
      }
    } catch {
      // Written below, and retried if that fails too.
    }
    await this.persist();
  }

  private async persist(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    clearTimeout(this.retryTimer);
    try {
      while (!this.stopped && this.latest !== undefined && this.stored !== this.latest) {
        const catalog = this.latest;
        const generation = this.generation;
        await this.store.writeCatalog(catalog);
        if (generation === this.generation) this.stored = catalog;
        this.options.onStored();
      }
    } catch (error) {
      this.options.onFailed(error as Error);
      if (!this.stopped) this.retryTimer = setTimeout(() => void this.persist(), this.options.retryMs);
    } finally {
      this.writing = false;
    }
  }
}
