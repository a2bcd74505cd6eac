import { InstrumentHead } from './state-store';

/**
 * The head each instrument had after this store's last acknowledged write. After a failover, a
 * promoted replica may lack the newest writes the old primary acknowledged: its head of such an
 * instrument no longer shows the book version and trades revision written last.
 */
export class AcknowledgedWrites {
  private readonly heads = new Map<string, { bookVersion: number; tradesRevision: number }>();

  record(instrument: string, head: InstrumentHead): void {
    this.heads.set(instrument, { bookVersion: head.bookVersion, tradesRevision: head.tradesRevision });
  }

  /** Another writer owns the instrument now: what it writes is not this store's to check. */
  forget(instrument: string): void {
    this.heads.delete(instrument);
  }

  clear(): void {
    this.heads.clear();
  }

  instruments(): string[] {
    return [...this.heads.keys()];
  }

  /** The instruments whose stored head is missing or older or other than the last write left it. */
  lost(stored: ReadonlyMap<string, InstrumentHead>): string[] {
    return [...this.heads].flatMap(([instrument, written]) => {
      const head = stored.get(instrument);
      const same =
        head !== undefined &&
        head.bookVersion === written.bookVersion &&
        head.tradesRevision === written.tradesRevision;
      return same ? [] : [instrument];
    });
  }
}
