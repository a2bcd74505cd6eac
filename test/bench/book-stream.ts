import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** `[price, amount]` as canonical decimal text; amount "0" removes the level. */
export type TextLevel = readonly [price: string, amount: string];

export interface RecordedDelta {
  readonly version: number;
  readonly bids: readonly TextLevel[];
  readonly asks: readonly TextLevel[];
}

/** A seeded book feed: one snapshot, then deltas, as canonical text and as the hub sends them. */
export interface RecordedBookStream {
  readonly instrument: string;
  readonly levelsPerSide: number;
  readonly priceScale: number;
  readonly amountScale: number;
  readonly snapshot: { readonly bids: readonly TextLevel[]; readonly asks: readonly TextLevel[] };
  readonly deltas: readonly RecordedDelta[];
  /** Level updates over all deltas. */
  readonly updateCount: number;
  /** Each delta as a `Book` stream item message of the hub's JSON protocol, record separator included. */
  readonly hubFrames: readonly string[];
  /** The same frames with every decimal at its full scale, trailing zeros kept, as .NET decimals print. */
  readonly paddedHubFrames: readonly string[];
}

export interface BookStreamOptions {
  readonly levelsPerSide: number;
  readonly updates: number;
  readonly seed: number;
  readonly priceScale?: number;
  readonly amountScale?: number;
}

/** Share of updates anywhere in the book rather than near the touch. */
const DEEP_SHARE = 0.06;
/** Mean distance from the best level, in levels, of an update near the touch. */
const NEAR_MEAN_DISTANCE = 8;
/** Share of the ticks of the book's range that hold a level. */
const OCCUPANCY = 0.8;
const RECORD_SEPARATOR = '\x1e';

/**
 * One side of the generator's model book: integer ticks in an array worst first (best at the end),
 * so that the busy region near the touch is cheap to change; `sign` turns ticks into an ascending key.
 */
class ModelSide {
  readonly keys: number[] = [];
  readonly amounts = new Map<number, number>();

  constructor(readonly sign: 1 | -1) {}

  get size(): number {
    return this.keys.length;
  }

  /** The tick `distance` levels away from the best one. */
  tickAt(distance: number): number {
    return this.sign * this.keys[this.keys.length - 1 - distance];
  }

  bestTick(): number {
    return this.tickAt(0);
  }

  has(tick: number): boolean {
    return this.amounts.has(tick);
  }

  set(tick: number, amount: number): void {
    if (!this.amounts.has(tick)) this.keys.splice(this.lowerBound(this.sign * tick), 0, this.sign * tick);
    this.amounts.set(tick, amount);
  }

  delete(tick: number): void {
    this.keys.splice(this.lowerBound(this.sign * tick), 1);
    this.amounts.delete(tick);
  }

  private lowerBound(key: number): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.keys[middle] < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * A realistic delta stream for one deep book: most updates change, remove or add levels within a few
 * levels of the touch (mean distance NEAR_MEAN_DISTANCE), some anywhere in the book; new levels fill
 * gaps and sometimes improve the best price, removals take the touch away, so the mid price wanders
 * and the book never crosses. Sizes stay near `levelsPerSide`. The same seed gives the same stream.
 */
export function generateBookStream(options: BookStreamOptions): RecordedBookStream {
  const priceScale = options.priceScale ?? 2;
  const amountScale = options.amountScale ?? 8;
  const random = xoroshiro128plus(options.seed);
  const unit = () => uniformFloat64(random);
  const integer = (from: number, to: number) => uniformInt(random, from, to);
  const geometric = (mean: number) => Math.floor(-Math.log(1 - unit()) * mean);
  const amount = () => Math.max(1, Math.round(10 ** (unit() * 3.5 - 2) * 10 ** amountScale));

  const bids = new ModelSide(1);
  const asks = new ModelSide(-1);
  const midTick = 30_000 * 10 ** priceScale;
  for (const [side, direction] of [
    [bids, -1],
    [asks, 1],
  ] as const) {
    for (let tick = midTick + direction; side.size < options.levelsPerSide; tick += direction) {
      if (unit() < OCCUPANCY) side.set(tick, amount());
    }
  }
  const price = (tick: number) => formatUnits(tick, priceScale);
  const levelsOf = (side: ModelSide) =>
    [...side.keys].reverse().map((key): TextLevel => {
      const tick = side.sign * key;
      return [price(tick), formatUnits(side.amounts.get(tick)!, amountScale)];
    });
  const snapshot = { bids: levelsOf(bids), asks: levelsOf(asks) };

  const deltas: RecordedDelta[] = [];
  let updateCount = 0;
  let version = 1;
  while (updateCount < options.updates) {
    const changed = { bids: new Map<number, number>(), asks: new Map<number, number>() };
    const count = Math.min(20, 1 + geometric(2));
    for (let i = 0; i < count; i++) {
      const isBid = unit() < 0.5;
      const side = isBid ? bids : asks;
      const other = isBid ? asks : bids;
      const deep = unit() < DEEP_SHARE;
      const distance = Math.min(
        side.size - 1,
        deep ? integer(0, side.size - 1) : geometric(NEAR_MEAN_DISTANCE),
      );
      const tick = side.tickAt(distance);
      // Removals and additions balance around the target size.
      const surplus = (side.size - options.levelsPerSide) / options.levelsPerSide;
      const removeShare = 0.3 + Math.max(-0.15, Math.min(0.15, surplus * 20));
      const roll = unit();
      let target: number;
      let newAmount: number;
      if (roll < removeShare && side.size > 1) {
        target = tick;
        newAmount = 0;
      } else if (roll < removeShare + 0.45) {
        // A new level: inside the spread now and then, else in a gap near the chosen one.
        const inward = side.sign;
        const spreadTicks = Math.abs(other.bestTick() - side.bestTick());
        target =
          !deep && spreadTicks > 1 && unit() < 0.15
            ? side.bestTick() + inward * integer(1, Math.min(spreadTicks - 1, 3))
            : tick - inward * integer(1, 3);
        newAmount = amount();
      } else {
        target = tick;
        newAmount = amount();
      }
      if (newAmount === 0) side.delete(target);
      else side.set(target, newAmount);
      (isBid ? changed.bids : changed.asks).set(target, newAmount);
    }
    const levels = (updates: Map<number, number>) =>
      [...updates].map(([tick, units]): TextLevel => [price(tick), formatUnits(units, amountScale)]);
    const delta: RecordedDelta = {
      version: version++,
      bids: levels(changed.bids),
      asks: levels(changed.asks),
    };
    updateCount += delta.bids.length + delta.asks.length;
    deltas.push(delta);
  }
  const instrument = 'btc_usdt';
  const padded = (text: string, scale: number) => padToScale(text, scale);
  return {
    instrument,
    levelsPerSide: options.levelsPerSide,
    priceScale,
    amountScale,
    snapshot,
    deltas,
    updateCount,
    hubFrames: deltas.map((delta) => hubFrame(instrument, delta, (text) => text)),
    paddedHubFrames: deltas.map((delta) =>
      hubFrame(instrument, delta, (text, isPrice) => padded(text, isPrice ? priceScale : 28)),
    ),
  };
}

/** A hub `Book` stream item message (spec 6.1) with the levels written as bare JSON numbers. */
function hubFrame(
  instrument: string,
  delta: RecordedDelta,
  number: (text: string, isPrice: boolean) => string,
): string {
  const entries = (levels: readonly TextLevel[]) =>
    levels
      .map(([price, amount]) => `{"amount":${number(amount, false)},"price":${number(price, true)}}`)
      .join(',');
  return (
    `{"type":2,"invocationId":"1","item":{"instrument":"${instrument}",` +
    `"bids":[${entries(delta.bids)}],"asks":[${entries(delta.asks)}],"version":${delta.version},` +
    `"askTotalAmount":0,"bidTotalAmount":0,"snapshot":false}}${RECORD_SEPARATOR}`
  );
}

/** Integer units of 10^-scale as canonical decimal text. */
export function formatUnits(units: number, scale: number): string {
  const digits = String(units).padStart(scale + 1, '0');
  const integerPart = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return fraction ? `${integerPart}.${fraction}` : integerPart;
}

/** Canonical text with trailing zeros up to `scale` decimals ("0.5" at 4 is "0.5000"). */
function padToScale(text: string, scale: number): string {
  const point = text.indexOf('.');
  const decimals = point < 0 ? 0 : text.length - point - 1;
  return (point < 0 ? `${text}.` : text) + '0'.repeat(scale - decimals);
}
