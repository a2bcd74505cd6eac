import { BookMessage } from '../../../market/book-update';

/**
 * A plain book rebuilt from BookMessages, keyed `side@price`, for comparing with a reference book in
 * tests: a snapshot replaces everything, a delta's updates apply in order, amount "0" removes a level.
 */
export class BookReplica {
  readonly levels = new Map<string, string>();
  version = -1;
  snapshots = 0;
  deltas = 0;

  apply(message: BookMessage): void {
    if (message.snapshot) {
      this.levels.clear();
      this.snapshots += 1;
    } else {
      this.deltas += 1;
    }
    for (const { side, price, amount } of message.updates) {
      const key = `${side}@${price}`;
      if (amount === '0') this.levels.delete(key);
      else this.levels.set(key, amount);
    }
    this.version = message.version;
  }
}
