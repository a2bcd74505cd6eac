/** The most recent items, at most `capacity`: the oldest gives way to each new one. */
export class BoundedRing<T> {
  private readonly items: T[] = [];
  private next = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity ${capacity}: must be a positive integer`);
  }

  add(item: T): void {
    if (this.items.length < this.capacity) this.items.push(item);
    else this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Oldest first. */
  oldestFirst(): T[] {
    return this.items.length < this.capacity
      ? [...this.items]
      : [...this.items.slice(this.next), ...this.items.slice(0, this.next)];
  }

  /** Newest first. */
  newestFirst(): T[] {
    return this.oldestFirst().reverse();
  }
}
