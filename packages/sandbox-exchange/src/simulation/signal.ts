export type Listener<T> = (value: T) => void;

/** A minimal synchronous event: listeners run in subscription order when a value is emitted. */
export class Signal<T> {
  private listeners: Listener<T>[] = [];

  /** Subscribes and returns the function that unsubscribes. */
  subscribe(listener: Listener<T>): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  emit(value: T): void {
    for (const listener of this.listeners) listener(value);
  }

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }
}
