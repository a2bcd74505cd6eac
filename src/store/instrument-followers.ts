import { ListenerSet } from './listener-set';
import { InstrumentChange } from './state-store';

/** The listeners of each instrument's changes, as both stores deliver them; an instrument left unfollowed is forgotten. */
export class InstrumentFollowers {
  private readonly byInstrument = new Map<string, ListenerSet<InstrumentChange>>();

  constructor(private readonly reportError: (error: unknown) => void) {}

  /** Adds a listener of `instrument`'s changes; the returned function removes it. */
  follow(instrument: string, listener: (change: InstrumentChange) => void): () => void {
    let listeners = this.byInstrument.get(instrument);
    if (!listeners) {
      listeners = new ListenerSet(this.reportError);
      this.byInstrument.set(instrument, listeners);
    }
    const followed = listeners;
    const remove = followed.add(listener);
    return () => {
      remove();
      if (followed.size === 0 && this.byInstrument.get(instrument) === followed)
        this.byInstrument.delete(instrument);
    };
  }

  emit(change: InstrumentChange): void {
    this.byInstrument.get(change.instrument)?.emit(change);
  }

  clear(): void {
    this.byInstrument.clear();
  }
}
