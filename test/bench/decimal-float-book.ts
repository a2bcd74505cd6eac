/**
 * The float peer of the exact-decimals benchmark: the same book design as OrderBook (each side sorted
 * worst to best so that the busy end is cheap to change, binary search over a Float64Array), with
 * prices and amounts as JS numbers instead of canonical text. It is what the gateway would run if it
 * gave up exactness, so the difference between the two is the cost of exact decimals alone.
 */
class FloatBookSide {
  private keys = new Float64Array(1024);
  private amounts = new Float64Array(1024);
  private count = 0;

  /** `direction` 1: best = highest price (bids); -1: best = lowest price (asks). */
  constructor(private readonly direction: 1 | -1) {}

  get size(): number {
    return this.count;
  }

  set(price: number, amount: number): void {
    const key = this.direction * price;
    const index = this.lowerBound(key);
    const found = index < this.count && this.keys[index] === key;
    if (amount === 0) {
      if (!found) return;
      this.keys.copyWithin(index, index + 1, this.count);
      this.amounts.copyWithin(index, index + 1, this.count);
      this.count--;
      return;
    }
    if (found) {
      this.amounts[index] = amount;
      return;
    }
    if (this.count === this.keys.length) this.grow();
    this.keys.copyWithin(index + 1, index, this.count);
    this.amounts.copyWithin(index + 1, index, this.count);
    this.keys[index] = key;
    this.amounts[index] = amount;
    this.count++;
  }

  /** Best first, as `[price, amount]` text at the given scales. */
  format(limit: number, priceScale: number, amountScale: number): [string, string][] {
    const count = Math.min(limit, this.count);
    const result = new Array<[string, string]>(count);
    for (let i = 0; i < count; i++) {
      const index = this.count - 1 - i;
      result[i] = [
        (this.direction * this.keys[index]).toFixed(priceScale),
        this.amounts[index].toFixed(amountScale),
      ];
    }
    return result;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const amounts = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    amounts.set(this.amounts);
    this.keys = keys;
    this.amounts = amounts;
  }

  private lowerBound(key: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.keys[middle] < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

export class FloatOrderBook {
  readonly bids = new FloatBookSide(1);
  readonly asks = new FloatBookSide(-1);
}

/** What a float gateway reads from a hub frame: JSON.parse, and a finite number for every price and amount. */
export function applyFloatHubFrame(book: FloatOrderBook, frame: string): void {
  const message = JSON.parse(frame.slice(0, -1)) as {
    item: { bids: { price: unknown; amount: unknown }[]; asks: { price: unknown; amount: unknown }[] };
  };
  applyFloatLevels(book.bids, message.item.bids);
  applyFloatLevels(book.asks, message.item.asks);
}

function applyFloatLevels(side: FloatBookSide, entries: { price: unknown; amount: unknown }[]): void {
  for (const { price, amount } of entries) {
    if (typeof price !== 'number' || typeof amount !== 'number' || !(price > 0) || !(amount >= 0))
      throw new Error('malformed level');
    side.set(price, amount);
  }
}
