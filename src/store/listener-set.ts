/**
 * Listeners of one kind of event. A listener that throws is reported and does not keep the event
 * from the others.
 */
export class ListenerSet<T> {
  private readonly listeners = new Set<(value: T) => void>();

  constructor(private readonly reportError: (error: unknown) => void) {}

  get size(): number {
    return this.listeners.size;
  }

  /** Adds a listener; the returned function removes it. */
  add(listener: (value: T) => void): () => void {
    // A wrapper per registration, so that adding the same function twice needs two removals.
    const entry = (value: T): void => listener(value);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  emit(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        this.reportError(error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
