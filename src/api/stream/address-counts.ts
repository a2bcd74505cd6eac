/** Open connections per client address, against the most one address may hold. */
export class AddressCounts {
  private readonly counts = new Map<string, number>();

  constructor(private readonly maxPerAddress: number) {}

  /** Counts one more connection of `address` if it has room; the returned function uncounts it, once. */
  open(address: string): (() => void) | undefined {
    const count = this.counts.get(address) ?? 0;
    if (count >= this.maxPerAddress) return undefined;
    this.counts.set(address, count + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.counts.get(address) ?? 1) - 1;
      if (left > 0) this.counts.set(address, left);
      else this.counts.delete(address);
    };
  }

  get size(): number {
    return this.counts.size;
  }
}
