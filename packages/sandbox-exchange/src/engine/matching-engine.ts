import { BookSide, PriceLevel } from './book-side';
import { LevelAction, LevelChange } from './level-change';
import { Order, OrderRequest } from './order';
import { oppositeSide, Side } from './side';

export interface Fill {
  readonly maker: Order;
  readonly taker: Order;
  readonly price: bigint;
  readonly amount: bigint;
}

/**
 * `working`: rests in the book (possibly partly filled); `filled`: fully executed; `cancelled`: the
 * unfilled rest of an ioc, fok or market order was dropped (fok: nothing was filled).
 */
export type ExecutionStatus = 'working' | 'filled' | 'cancelled';

export interface Execution {
  readonly order: Order;
  readonly status: ExecutionStatus;
  readonly fills: readonly Fill[];
  /** Final state of every level the operation touched, in the order they were first touched. */
  readonly changes: readonly LevelChange[];
}

/** What resuming matching did: the crossing orders matched against each other. */
export interface Uncross {
  readonly fills: readonly Fill[];
  readonly changes: readonly LevelChange[];
}

export interface Cancellation {
  readonly order: Order;
  readonly changes: readonly LevelChange[];
}

export interface LevelView {
  readonly price: bigint;
  readonly amount: bigint;
  readonly orders: number;
}

/** A price-time-priority limit order book for one market that matches incoming orders. */
export class MatchingEngine {
  private readonly bids = new BookSide(Side.Buy);
  private readonly asks = new BookSide(Side.Sell);
  private readonly ordersById = new Map<number, Order>();
  private readonly totals = { [Side.Buy]: 0n, [Side.Sell]: 0n };
  private stopped = false;

  /** Order ids must increase: when the book uncrosses, the lower id is the order that rested first. */
  constructor(private readonly nextOrderId: () => number) {}

  /** True while matching is stopped: limit orders rest whatever the other side holds. */
  get matchingStopped(): boolean {
    return this.stopped;
  }

  /**
   * Stops matching: from now on a gtc limit order rests at its price even when it crosses the other
   * side, and an order that cannot rest (market, ioc, fok) is cancelled with nothing filled.
   */
  stopMatching(): void {
    this.stopped = true;
  }

  /**
   * Resumes matching and uncrosses the book: while the best bid reaches the best ask, the oldest order
   * of the best bid level meets the oldest of the best ask level, at the price of whichever of the two
   * rested first (the maker; the other is the taker, as it would have been had matching never stopped).
   */
  resumeMatching(): Uncross {
    this.stopped = false;
    const tracker = new ChangeTracker();
    const fills: Fill[] = [];
    for (;;) {
      const bidLevel = this.bids.best();
      const askLevel = this.asks.best();
      if (!bidLevel || !askLevel || bidLevel.price < askLevel.price) break;
      tracker.touch(Side.Buy, bidLevel, false);
      tracker.touch(Side.Sell, askLevel, false);
      const bid = bidLevel.orders[0];
      const ask = askLevel.orders[0];
      const [maker, taker] = bid.id < ask.id ? [bid, ask] : [ask, bid];
      const amount = bid.remaining < ask.remaining ? bid.remaining : ask.remaining;
      fills.push({ maker, taker, price: maker.price, amount });
      this.fillOldest(this.bids, bidLevel, bid, amount);
      this.fillOldest(this.asks, askLevel, ask, amount);
    }
    return { fills, changes: tracker.changes() };
  }

  get restingOrderCount(): number {
    return this.ordersById.size;
  }

  order(id: number): Order | undefined {
    return this.ordersById.get(id);
  }

  restingOrders(): IterableIterator<Order> {
    return this.ordersById.values();
  }

  bestPrice(side: Side): bigint | undefined {
    return this.sideOf(side).best()?.price;
  }

  /** Sum of the resting amounts of one side. */
  totalAmount(side: Side): bigint {
    return this.totals[side];
  }

  levelCount(side: Side): number {
    return this.sideOf(side).size;
  }

  /** Levels of one side from the best price outwards. */
  *levels(side: Side): IterableIterator<LevelView> {
    for (const level of this.sideOf(side).bestFirst()) {
      yield { price: level.price, amount: level.total, orders: level.orders.length };
    }
  }

  place(request: OrderRequest, now: number): Execution {
    const order: Order = {
      id: this.nextOrderId(),
      accountId: request.accountId,
      side: request.side,
      type: request.type,
      price: request.type === 'limit' ? (request.price ?? 0n) : 0n,
      amount: request.amount,
      timeInForce:
        request.type === 'market' ? (request.timeInForce === 'fok' ? 'fok' : 'ioc') : request.timeInForce,
      clientOrderId: request.clientOrderId,
      createdAt: now,
      remaining: request.amount,
    };
    if (order.timeInForce === 'fok' && (this.stopped || this.fillableAmount(order) < order.amount)) {
      return { order, status: 'cancelled', fills: [], changes: [] };
    }
    const tracker = new ChangeTracker();
    const fills = this.stopped ? [] : this.match(order, tracker);
    let status: ExecutionStatus;
    if (order.remaining === 0n) status = 'filled';
    else if (order.timeInForce === 'gtc') {
      const level = this.sideOf(order.side).levelAt(order.price);
      tracker.touch(order.side, level, level.orders.length === 0);
      level.add(order);
      this.totals[order.side] += order.remaining;
      this.ordersById.set(order.id, order);
      status = 'working';
    } else status = 'cancelled';
    return { order, status, fills, changes: tracker.changes() };
  }

  cancel(orderId: number): Cancellation | undefined {
    const order = this.ordersById.get(orderId);
    if (!order) return undefined;
    const side = this.sideOf(order.side);
    const level = side.find(order.price);
    const tracker = new ChangeTracker();
    if (level) {
      tracker.touch(order.side, level, false);
      level.remove(order);
      this.totals[order.side] -= order.remaining;
      if (level.orders.length === 0) side.removeLevel(level);
    }
    this.ordersById.delete(orderId);
    return { order, changes: tracker.changes() };
  }

  private match(taker: Order, tracker: ChangeTracker): Fill[] {
    const fills: Fill[] = [];
    const book = this.sideOf(oppositeSide(taker.side));
    for (
      let level = book.best();
      level && taker.remaining > 0n && this.crosses(taker, level.price);
      level = book.best()
    ) {
      tracker.touch(book.side, level, false);
      while (taker.remaining > 0n && level.orders.length > 0) {
        const maker = level.orders[0];
        const amount = maker.remaining < taker.remaining ? maker.remaining : taker.remaining;
        maker.remaining -= amount;
        taker.remaining -= amount;
        level.total -= amount;
        this.totals[book.side] -= amount;
        fills.push({ maker, taker, price: level.price, amount });
        if (maker.remaining === 0n) {
          level.orders.shift();
          this.ordersById.delete(maker.id);
        }
      }
      if (level.orders.length === 0) book.removeLevel(level);
    }
    return fills;
  }

  /** Takes a filled amount off a resting order, dropping the order and its level once empty. */
  private fillOldest(book: BookSide, level: PriceLevel, order: Order, amount: bigint): void {
    order.remaining -= amount;
    level.total -= amount;
    this.totals[book.side] -= amount;
    if (order.remaining > 0n) return;
    level.orders.shift();
    this.ordersById.delete(order.id);
    if (level.orders.length === 0) book.removeLevel(level);
  }

  private fillableAmount(taker: Order): bigint {
    let available = 0n;
    for (const level of this.sideOf(oppositeSide(taker.side)).bestFirst()) {
      if (!this.crosses(taker, level.price) || available >= taker.amount) break;
      available += level.total;
    }
    return available;
  }

  private crosses(taker: Order, makerPrice: bigint): boolean {
    if (taker.type === 'market') return true;
    return taker.side === Side.Buy ? taker.price >= makerPrice : taker.price <= makerPrice;
  }

  private sideOf(side: Side): BookSide {
    return side === Side.Buy ? this.bids : this.asks;
  }
}

/** Remembers the levels an operation touches and reports their final state. */
class ChangeTracker {
  private readonly touched: { side: Side; level: PriceLevel; existed: boolean }[] = [];

  touch(side: Side, level: PriceLevel, isNew: boolean): void {
    if (this.touched.some((entry) => entry.level === level)) return;
    this.touched.push({ side, level, existed: !isNew });
  }

  changes(): LevelChange[] {
    const changes: LevelChange[] = [];
    for (const { side, level, existed } of this.touched) {
      const exists = level.orders.length > 0;
      if (!existed && !exists) continue;
      const action = !existed ? LevelAction.New : exists ? LevelAction.Update : LevelAction.Delete;
      changes.push({
        side,
        price: level.price,
        amount: exists ? level.total : 0n,
        orders: level.orders.length,
        action,
      });
    }
    return changes;
  }
}
