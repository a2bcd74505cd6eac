import { OrderType, TimeInForce } from '../engine/order';
import { Side } from '../engine/side';
import { InvalidUnitsError, parseUnits } from '../engine/units';
import { SandboxMarketSpec } from '../market/market-spec';
import { MarketSimulator } from '../simulation/market-simulator';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { SandboxTrade } from '../simulation/sandbox-trade';
import { Signal } from '../simulation/signal';
import { SandboxUser } from '../users/sandbox-user';
import { AccountEvent } from './account-event';
import { AccountOrder, MutableAccountOrder, OrderSource } from './account-order';
import { AccountRejection, RejectionReason } from './account-rejection';
import { AccountTrade } from './account-trade';
import { AssetBalance, BalanceBook } from './balance-book';
import { feeOf, grossCost, quoteValue, RATE_SCALE, toBalanceUnits } from './balance-units';
import { defaultStartingBalances, startingBalancesOf } from './starting-balances';
import {
  AccountStopOrder,
  MAX_ACTIVE_STOP_ORDERS,
  MutableStopOrder,
  StopOrderType,
  StopTimeInForce,
  StopTrigger,
} from './stop-order';

/** An order to place; prices and amounts are plain decimal text at most at the market's scales. */
export interface PlaceOrderRequest {
  readonly instrument: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly amount: string;
  /** Required for a limit order; ignored for a market order. */
  readonly price?: string;
  /** A market order is `ioc` or `fok`; `gtc` given for one counts as `ioc`. */
  readonly timeInForce: TimeInForce;
  /** A UUID other than the all-zero one, unique among the account's open orders. */
  readonly clientOrderId?: string;
  /**
   * A reserve (iceberg) limit order: only this much of it is in the book at a time; when that slice
   * is filled the next one joins the book, behind the orders already at its price.
   */
  readonly displayAmount?: string;
  /** One-cancels-other: a working order of the same account whose first execution cancels this one. */
  readonly ocoOrderId?: number;
}

/** A stop order that follows the price: its activation price keeps `amount` away from the best last price seen. */
export interface TrailingRequest {
  /** Distance of the activation price from the last price, in price text. */
  readonly amount: string;
  /** A trailing limit order is placed this far beyond the activation price (above for a buy, below for a sell). */
  readonly limitOffset?: string;
}

export interface StopOrderRequest {
  readonly instrument: string;
  readonly orderType: StopOrderType;
  readonly side: Side;
  readonly requestedAmount: string;
  readonly requestedPrice: string;
  readonly activationPrice: string;
  readonly timeInForce: StopTimeInForce;
  /** Trailing: the activation price starts `trailing.amount` from the last price and follows it. */
  readonly trailing?: TrailingRequest;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
const ONE = 10n ** BigInt(RATE_SCALE);

interface MarketTerms {
  readonly spec: SandboxMarketSpec;
  readonly makerFee: bigint;
  readonly takerFee: bigint;
  /** The larger fee, which a resting buy locks so that it can pay either. */
  readonly maxFee: bigint;
  readonly minAmount: bigint;
  readonly priceDeviation: bigint;
}

/**
 * The users' side of the sandbox exchange: balances per account and asset, orders placed in the same
 * matching engines as the synthetic flow (so that their trades reach the same trade log, feeds and
 * truth), executions, and stop orders activated by the markets' last price.
 *
 * Money is exact (see {@link BALANCE_SCALE}): a buy locks `price x amount x (1 + max fee)` of the
 * quote asset, a sell locks its base amount; a fill pays `price x amount` plus the maker's or taker's
 * fee in the quote asset (the buyer pays it on top, the seller receives the value less it). At every
 * moment an account's locked amount of an asset is the sum of what its working orders reserve.
 *
 * Every change is announced on `events` once the operation that caused it is complete, so that
 * private feeds (the account hub, gateway order events) can follow an account without polling.
 */
export class SandboxAccounts {
  readonly events = new Signal<AccountEvent>();
  private readonly balanceBook = new BalanceBook();
  private readonly terms = new Map<string, MarketTerms>();
  private readonly accountIds = new Set<number>();
  private readonly ordersById = new Map<number, MutableAccountOrder>();
  private readonly ordersByAccount = new Map<number, MutableAccountOrder[]>();
  /** Working orders by the id of their order in the book (a reserve order's current slice). */
  private readonly working = new Map<number, MutableAccountOrder>();
  /** Id in the book of a reserve order's current slice, by the order's id. */
  private readonly slices = new Map<number, number>();
  /** Reserve orders whose slice was filled and that put the next one in the book. */
  private readonly refills: MutableAccountOrder[] = [];
  /** Orders to cancel when the order keyed executes (one-cancels-other). */
  private readonly ocoLinks = new Map<number, Set<number>>();
  private readonly ocoCancels: number[] = [];
  private readonly tradesByAccount = new Map<number, AccountTrade[]>();
  private readonly stopsById = new Map<number, MutableStopOrder>();
  private readonly waitingStops = new Map<string, Set<MutableStopOrder>>();
  private readonly triggered: MutableStopOrder[] = [];
  private readonly unsubscribes: (() => void)[] = [];
  private depth = 0;
  private capture?: { readonly market: MarketSimulator; readonly trades: SandboxTrade[] };
  private readonly dirty = {
    trades: [] as { accountId: number; trade: AccountTrade }[],
    orders: new Set<MutableAccountOrder>(),
    stops: new Set<MutableStopOrder>(),
    balances: new Map<string, { accountId: number; asset: string }>(),
  };

  constructor(
    private readonly exchange: SandboxExchange,
    users: readonly SandboxUser[],
  ) {
    const markets = exchange.all();
    const defaults = defaultStartingBalances(markets.map((market) => market.spec));
    for (const market of markets) {
      const { spec } = market;
      const makerFee = parseUnits(spec.makerFee, RATE_SCALE);
      const takerFee = parseUnits(spec.takerFee, RATE_SCALE);
      this.terms.set(spec.instrument, {
        spec,
        makerFee,
        takerFee,
        maxFee: makerFee > takerFee ? makerFee : takerFee,
        minAmount: parseUnits(spec.minAmount, spec.amountScale),
        priceDeviation: parseUnits(spec.priceDeviation, RATE_SCALE),
      });
      this.waitingStops.set(spec.instrument, new Set());
      this.unsubscribes.push(market.trades.subscribe((trades) => this.onTrades(market, trades)));
    }
    for (const user of users) {
      const starting = startingBalancesOf(user, defaults);
      for (const accountId of user.accounts) {
        this.accountIds.add(accountId);
        for (const [asset, units] of starting) this.balanceBook.credit(accountId, asset, units);
      }
    }
  }

  /** Stops following the markets. */
  dispose(): void {
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
  }

  hasAccount(accountId: number): boolean {
    return this.accountIds.has(accountId);
  }

  balances(accountId: number): AssetBalance[] {
    return this.balanceBook.balances(accountId);
  }

  balance(accountId: number, asset: string): AssetBalance {
    return this.balanceBook.balance(accountId, asset);
  }

  /** Every order of the account, in placement order. */
  orders(accountId: number): readonly AccountOrder[] {
    return this.ordersByAccount.get(accountId) ?? [];
  }

  openOrders(accountId: number): AccountOrder[] {
    return this.orders(accountId).filter((order) => order.status === 'Working');
  }

  /**
   * The account's order with this id, or with this `clientOrderId`: the open one if there is one,
   * else the last placed.
   */
  order(accountId: number, reference: string): AccountOrder | undefined {
    if (/^\d+$/.test(reference)) {
      const order = this.ordersById.get(Number(reference));
      return order?.accountId === accountId ? order : undefined;
    }
    const clientOrderId = reference.toLowerCase();
    const same = this.orders(accountId).filter((order) => order.clientOrderId === clientOrderId);
    return same.find((order) => order.status === 'Working') ?? same[same.length - 1];
  }

  /** The order with this id, whichever account placed it. */
  orderById(orderId: number): AccountOrder | undefined {
    return this.ordersById.get(orderId);
  }

  /** The stop order with this id, whichever account created it. */
  stopOrderById(id: number): AccountStopOrder | undefined {
    return this.stopsById.get(id);
  }

  /** Every execution of the account, oldest first. */
  trades(accountId: number): readonly AccountTrade[] {
    return this.tradesByAccount.get(accountId) ?? [];
  }

  /** The account's stop orders (deleted ones are gone), in creation order. */
  stopOrders(accountId: number): AccountStopOrder[] {
    return [...this.stopsById.values()].filter((stop) => stop.accountId === accountId);
  }

  stopOrder(accountId: number, id: number): AccountStopOrder | undefined {
    const stop = this.stopsById.get(id);
    return stop?.accountId === accountId ? stop : undefined;
  }

  /**
   * Places an order. Requests that are malformed or refer to nothing are refused without a trace;
   * those refused by the market's rules or the balance are recorded as `Rejected` orders. Either
   * way an {@link AccountRejection} is thrown.
   */
  placeOrder(accountId: number, request: PlaceOrderRequest): AccountOrder {
    return this.unitOfWork(() => ({ ...this.place(accountId, request, 0) }));
  }

  /** Cancels a working order found by id or `clientOrderId` (see {@link order}). */
  cancelOrder(accountId: number, reference: string): AccountOrder {
    return this.unitOfWork(() => {
      const order = this.order(accountId, reference);
      if (!order) throw new AccountRejection('order_not_found', `Order ${reference} not found`);
      if (order.status !== 'Working')
        throw new AccountRejection('order_not_open', `Order ${order.id} is ${order.status}, not Working`);
      const working = this.ordersById.get(order.id)!;
      this.marketOf(order.instrument).cancel(
        this.slices.get(order.id) ?? order.id,
        this.exchange.clock.now(),
      );
      this.finish(working, 'Cancelled');
      return { ...working };
    });
  }

  createStopOrder(accountId: number, request: StopOrderRequest): AccountStopOrder {
    return this.unitOfWork(() => {
      this.requireAccount(accountId);
      const market = this.marketOf(request.instrument);
      const terms = this.termsOf(market);
      const { spec } = terms;
      const requestedAmount = this.units(request.requestedAmount, spec.amountScale, 'requestedAmount');
      const requestedPrice = this.units(request.requestedPrice, spec.priceScale, 'requestedPrice');
      let activationPrice = this.units(request.activationPrice, spec.priceScale, 'activationPrice');
      let trailingAmount: bigint | undefined;
      let limitOffset = 0n;
      if (request.trailing) {
        trailingAmount = this.units(request.trailing.amount, spec.priceScale, 'trailing amount');
        limitOffset = this.units(request.trailing.limitOffset ?? '0', spec.priceScale, 'limit offset');
        if (trailingAmount <= 0n) this.invalid('the trailing amount must be greater than 0');
        const last = market.tradeLog.last()?.price;
        if (last !== undefined) activationPrice = trailingLevel(last, trailingAmount, request.side) ?? 0n;
        if (activationPrice <= 0n)
          this.invalid('a trailing stop order needs a last price above its trailing amount');
      }
      if (requestedAmount <= 0n) this.invalid('requestedAmount must be greater than 0');
      if (request.orderType === 'limit' && request.timeInForce !== 'gtc')
        this.invalid('a limit stop order has timeInForce gtc');
      if (request.orderType === 'market' && request.timeInForce === 'gtc')
        this.invalid('a market stop order has timeInForce ioc or fok');
      if (request.orderType === 'limit' && requestedPrice <= 0n && !request.trailing)
        this.invalid('requestedPrice must be greater than 0 for a limit stop order');
      if (requestedAmount < terms.minAmount)
        throw new AccountRejection(
          'amount_below_minimum',
          `requestedAmount is below the minimum amount ${spec.minAmount} of ${spec.instrument}`,
        );
      this.requireTradable(market, request.side);
      const active = this.stopOrders(accountId).filter((stop) => stop.status === 'WaitingForActivation');
      if (active.length >= MAX_ACTIVE_STOP_ORDERS)
        throw new AccountRejection(
          'stop_order_limit',
          `At most ${MAX_ACTIVE_STOP_ORDERS} stop orders may wait for activation at a time`,
        );
      const now = this.exchange.clock.now();
      const stop: MutableStopOrder = {
        // From the order ids, so that one id never names both an order and a stop order.
        id: this.exchange.newOrderId(),
        accountId,
        instrument: spec.instrument,
        orderType: request.orderType,
        timeInForce: request.timeInForce,
        side: request.side,
        requestedAmount,
        requestedPrice: request.orderType === 'limit' ? requestedPrice : 0n,
        activationPrice,
        trigger: request.trailing
          ? request.side === Side.Buy
            ? 'rise'
            : 'fall'
          : triggerOf(activationPrice, market.tradeLog.last()?.price, request.side),
        ...(trailingAmount !== undefined ? { trailingAmount, limitOffset } : {}),
        createdAt: now,
        updatedAt: now,
        status: 'WaitingForActivation',
      };
      this.stopsById.set(stop.id, stop);
      this.waitingStops.get(spec.instrument)!.add(stop);
      this.dirty.stops.add(stop);
      return { ...stop };
    });
  }

  /** Deletes a stop order that still waits for activation; it is gone afterwards. */
  deleteStopOrder(accountId: number, id: number): AccountStopOrder {
    return this.unitOfWork(() => {
      const stop = this.stopsById.get(id);
      if (!stop || stop.accountId !== accountId)
        throw new AccountRejection('stop_order_not_found', `Stop order ${id} not found`);
      if (stop.status !== 'WaitingForActivation')
        throw new AccountRejection(
          'stop_order_not_waiting',
          `Stop order ${id} is ${stop.status}; only WaitingForActivation stop orders can be deleted`,
        );
      this.waitingStops.get(stop.instrument)!.delete(stop);
      this.stopsById.delete(id);
      return stop;
    });
  }

  private place(accountId: number, request: PlaceOrderRequest, source: OrderSource): MutableAccountOrder {
    this.requireAccount(accountId);
    const market = this.marketOf(request.instrument);
    const terms = this.termsOf(market);
    const { spec } = terms;
    const amount = this.units(request.amount, spec.amountScale, 'amount');
    if (amount <= 0n) this.invalid('amount must be greater than 0');
    let price = 0n;
    if (request.type === 'limit') {
      if (request.price === undefined) this.invalid('price is required for a limit order');
      price = this.units(request.price, spec.priceScale, 'price');
      if (price <= 0n) this.invalid('price must be greater than 0 for a limit order');
    }
    const timeInForce: TimeInForce =
      request.type === 'market' && request.timeInForce === 'gtc' ? 'ioc' : request.timeInForce;
    const clientOrderId = request.clientOrderId?.toLowerCase();
    if (clientOrderId !== undefined) {
      if (!UUID.test(clientOrderId) || clientOrderId === ZERO_UUID)
        this.invalid('clientOrderId must be a UUID other than the all-zero one');
      if (this.openOrders(accountId).some((order) => order.clientOrderId === clientOrderId))
        throw new AccountRejection(
          'duplicate_client_order_id',
          `An open order with clientOrderId ${clientOrderId} exists`,
        );
    }
    let displayAmount: bigint | undefined;
    if (request.displayAmount !== undefined) {
      displayAmount = this.units(request.displayAmount, spec.amountScale, 'displayAmount');
      if (request.type !== 'limit' || timeInForce !== 'gtc')
        this.invalid('a display amount is for a good-til-cancelled limit order');
      if (displayAmount <= 0n || displayAmount > amount)
        this.invalid('displayAmount must be greater than 0 and at most the amount');
      if (displayAmount === amount) displayAmount = undefined;
    }
    if (request.ocoOrderId !== undefined) {
      const other = this.ordersById.get(request.ocoOrderId);
      if (other?.accountId !== accountId || other.status !== 'Working')
        this.invalid(`order ${request.ocoOrderId} is not a working order of the account`);
    }
    const now = this.exchange.clock.now();
    const buy = request.side === Side.Buy;
    const draft: MutableAccountOrder = {
      id: 0,
      accountId,
      instrument: spec.instrument,
      side: request.side,
      type: request.type,
      timeInForce,
      price,
      amount,
      ...(clientOrderId ? { clientOrderId } : {}),
      ...(displayAmount !== undefined ? { displayAmount } : {}),
      source,
      createdAt: now,
      status: 'Working',
      filled: 0n,
      total: 0n,
      commission: 0n,
      updatedAt: now,
      reserveAsset: buy ? spec.quoteAsset : spec.baseAsset,
      reserved: 0n,
    };

    const refusal = this.ruleRefusal(market, terms, draft);
    if (refusal) return this.reject(draft, refusal.reason, refusal.message);
    const reserve = this.reserveFor(market, terms, draft);
    if (!this.balanceBook.reserve(accountId, draft.reserveAsset, reserve))
      return this.reject(
        draft,
        'insufficient_balance',
        `Insufficient ${draft.reserveAsset}: the order needs more than is available`,
      );
    this.touchBalance(accountId, draft.reserveAsset);
    draft.reserved = reserve;

    const capture = { market, trades: [] as SandboxTrade[] };
    this.capture = capture;
    let execution;
    try {
      execution = market.execute(
        {
          accountId,
          side: draft.side,
          type: draft.type,
          price,
          amount: displayAmount ?? amount,
          timeInForce,
          ...(clientOrderId ? { clientOrderId } : {}),
        },
        now,
      );
    } finally {
      this.capture = undefined;
    }
    const order: MutableAccountOrder = { ...draft, id: execution.order.id };
    this.remember(order);
    if (request.ocoOrderId !== undefined) {
      let linked = this.ocoLinks.get(request.ocoOrderId);
      if (!linked) {
        linked = new Set();
        this.ocoLinks.set(request.ocoOrderId, linked);
      }
      linked.add(order.id);
    }
    if (execution.status === 'working') this.working.set(order.id, order);
    for (const trade of capture.trades) this.fill(order, trade, true);
    if (execution.status === 'filled') {
      if (order.filled === order.amount) this.finish(order, 'Completed');
      else this.refills.push(order);
    } else if (execution.status === 'cancelled') this.finish(order, 'Cancelled');
    return order;
  }

  /** Puts the next slice of a reserve order in the book; what it takes on the way fills the order. */
  private refill(order: MutableAccountOrder): void {
    if (order.status !== 'Working' || order.displayAmount === undefined) return;
    const market = this.marketOf(order.instrument);
    // One slice filled by several trades asks for its successor more than once.
    if (market.engine.order(this.slices.get(order.id) ?? order.id)) return;
    const left = order.amount - order.filled;
    const capture = { market, trades: [] as SandboxTrade[] };
    this.capture = capture;
    let execution;
    try {
      execution = market.execute(
        {
          accountId: order.accountId,
          side: order.side,
          type: 'limit',
          price: order.price,
          amount: left < order.displayAmount ? left : order.displayAmount,
          timeInForce: 'gtc',
          ...(order.clientOrderId ? { clientOrderId: order.clientOrderId } : {}),
        },
        this.exchange.clock.now(),
      );
    } finally {
      this.capture = undefined;
    }
    const previous = this.slices.get(order.id) ?? order.id;
    this.working.delete(previous);
    this.slices.set(order.id, execution.order.id);
    if (execution.status === 'working') this.working.set(execution.order.id, order);
    for (const trade of capture.trades) this.fill(order, trade, true);
    if (order.status === 'Working' && execution.status === 'filled') {
      if (order.filled === order.amount) this.finish(order, 'Completed');
      else this.refills.push(order);
    }
  }

  /** Cancels an order because the order it was linked to executed; one already finished stays as it is. */
  private cancelLinked(orderId: number): void {
    const order = this.ordersById.get(orderId);
    if (order?.status !== 'Working') return;
    this.marketOf(order.instrument).cancel(this.slices.get(order.id) ?? order.id, this.exchange.clock.now());
    this.finish(order, 'Cancelled');
  }

  /** The market's rules an order can break; a broken rule rejects the order. */
  private ruleRefusal(market: MarketSimulator, terms: MarketTerms, order: AccountOrder): Refusal | undefined {
    const { spec } = terms;
    const refusal = tradingRefusal(market, order.side);
    if (refusal) return refusal;
    if (order.amount < terms.minAmount)
      return {
        reason: 'amount_below_minimum',
        message: `amount is below the minimum amount ${spec.minAmount} of ${spec.instrument}`,
      };
    if (order.type === 'limit') {
      const reference = deviationReference(market, order.side);
      if (reference !== undefined) {
        const distance = order.price > reference ? order.price - reference : reference - order.price;
        if (distance * ONE > reference * terms.priceDeviation)
          return {
            reason: 'price_deviation',
            message: `price deviates from the ${order.side === Side.Buy ? 'best ask' : 'best bid'} by more than ${spec.priceDeviation}`,
          };
      }
    }
    return undefined;
  }

  /**
   * What the order locks: a sell its amount; a limit buy `price x amount x (1 + max fee)`; a market
   * buy the cost, taker fee included, of what it will fill against the book as it is now.
   */
  private reserveFor(market: MarketSimulator, terms: MarketTerms, order: AccountOrder): bigint {
    const { priceScale, amountScale } = terms.spec;
    if (order.side === Side.Sell) return toBalanceUnits(order.amount, amountScale);
    if (order.type === 'limit')
      return grossCost(order.price, order.amount, terms.maxFee, priceScale, amountScale);
    let remaining = order.amount;
    let cost = 0n;
    for (const level of market.engine.levels(Side.Sell)) {
      if (remaining === 0n) break;
      const amount = level.amount < remaining ? level.amount : remaining;
      cost += grossCost(level.price, amount, terms.takerFee, priceScale, amountScale);
      remaining -= amount;
    }
    return order.timeInForce === 'fok' && remaining > 0n ? 0n : cost;
  }

  /** Records the order as Rejected and throws. */
  private reject(draft: MutableAccountOrder, reason: RejectionReason, message: string): never {
    const order: MutableAccountOrder = {
      ...draft,
      id: this.exchange.newOrderId(),
      status: 'Rejected',
      rejectDetails: message,
    };
    this.remember(order);
    throw new AccountRejection(reason, message, order.id);
  }

  private remember(order: MutableAccountOrder): void {
    this.ordersById.set(order.id, order);
    let list = this.ordersByAccount.get(order.accountId);
    if (!list) {
      list = [];
      this.ordersByAccount.set(order.accountId, list);
    }
    list.push(order);
    this.dirty.orders.add(order);
  }

  /** One execution of a user's order; `taker` says which fee applies. */
  private fill(order: MutableAccountOrder, trade: SandboxTrade, taker: boolean): void {
    const terms = this.terms.get(order.instrument)!;
    const { spec } = terms;
    const { priceScale, amountScale } = spec;
    const rate = taker ? terms.takerFee : terms.makerFee;
    const base = toBalanceUnits(trade.amount, amountScale);
    const value = quoteValue(trade.price, trade.amount, priceScale, amountScale);
    const fee = feeOf(trade.price, trade.amount, rate, priceScale, amountScale);
    const { accountId } = order;
    if (order.side === Side.Buy) {
      const released =
        order.type === 'limit'
          ? grossCost(order.price, trade.amount, terms.maxFee, priceScale, amountScale)
          : value + fee;
      this.balanceBook.spendLocked(accountId, spec.quoteAsset, value + fee);
      this.balanceBook.release(accountId, spec.quoteAsset, released - value - fee);
      order.reserved -= released;
      this.balanceBook.credit(accountId, spec.baseAsset, base);
    } else {
      this.balanceBook.spendLocked(accountId, spec.baseAsset, base);
      order.reserved -= base;
      this.balanceBook.credit(accountId, spec.quoteAsset, value - fee);
    }
    this.touchBalance(accountId, spec.baseAsset);
    this.touchBalance(accountId, spec.quoteAsset);
    order.filled += trade.amount;
    order.total += value;
    order.commission += fee;
    order.updatedAt = trade.time;
    this.dirty.orders.add(order);
    const record: AccountTrade = {
      tradeId: trade.id,
      orderId: order.id,
      accountId,
      instrument: spec.instrument,
      side: order.side,
      price: trade.price,
      amount: trade.amount,
      value,
      commission: fee,
      maker: !taker,
      time: trade.time,
    };
    let list = this.tradesByAccount.get(accountId);
    if (!list) {
      list = [];
      this.tradesByAccount.set(accountId, list);
    }
    list.push(record);
    this.dirty.trades.push({ accountId, trade: record });
    const linked = this.ocoLinks.get(order.id);
    if (linked) {
      this.ocoLinks.delete(order.id);
      this.ocoCancels.push(...linked);
    }
    if (!taker) this.settleResting(order, trade.makerOrderId);
  }

  /**
   * After a fill of an order that rests in the book (a placement settles its own order): completes it,
   * or asks for the next slice of a reserve order whose slice (`bookOrderId`, the one that traded) left
   * the book.
   */
  private settleResting(order: MutableAccountOrder, bookOrderId: number): void {
    if (order.filled === order.amount) this.finish(order, 'Completed');
    else if (order.displayAmount !== undefined) {
      const slice = this.slices.get(order.id) ?? order.id;
      if (bookOrderId === slice && !this.marketOf(order.instrument).engine.order(slice))
        this.refills.push(order);
    }
  }

  /** Ends an order's work: it leaves the working set and what it still reserves is released. */
  private finish(order: MutableAccountOrder, status: 'Completed' | 'Cancelled'): void {
    order.status = status;
    order.updatedAt = this.exchange.clock.now();
    this.working.delete(this.slices.get(order.id) ?? order.id);
    this.slices.delete(order.id);
    this.ocoLinks.delete(order.id);
    if (order.reserved > 0n) {
      this.balanceBook.release(order.accountId, order.reserveAsset, order.reserved);
      order.reserved = 0n;
      this.touchBalance(order.accountId, order.reserveAsset);
    }
    this.dirty.orders.add(order);
  }

  /**
   * Every trade of every market passes here: fills of resting user orders (the maker side), the
   * trades of the user order being placed (its taker side), and the stop orders the price reached.
   */
  private onTrades(market: MarketSimulator, trades: readonly SandboxTrade[]): void {
    this.unitOfWork(() => {
      if (this.capture?.market === market) this.capture.trades.push(...trades);
      const waiting = this.waitingStops.get(market.instrument)!;
      for (const trade of trades) {
        const maker = this.working.get(trade.makerOrderId);
        if (maker) this.fill(maker, trade, false);
        // Only a book uncrossing (stop-matching switched off) trades an order that already rested as the taker.
        const resting = this.working.get(trade.takerOrderId);
        if (resting) {
          this.fill(resting, trade, true);
          this.settleResting(resting, trade.takerOrderId);
        }
        for (const stop of waiting) {
          if (stop.trailingAmount !== undefined) {
            const level = trailingLevel(trade.price, stop.trailingAmount, stop.side);
            const closer =
              level !== undefined &&
              (stop.side === Side.Buy ? level < stop.activationPrice : level > stop.activationPrice);
            if (closer) {
              stop.activationPrice = level;
              stop.updatedAt = trade.time;
              this.dirty.stops.add(stop);
            }
          }
          const reached =
            stop.trigger === 'rise'
              ? trade.price >= stop.activationPrice
              : trade.price <= stop.activationPrice;
          if (reached) {
            waiting.delete(stop);
            this.triggered.push(stop);
          }
        }
      }
    });
  }

  /** Places the order of a triggered stop; a refusal rejects the stop order with the reason. */
  private activate(stop: MutableStopOrder): void {
    stop.updatedAt = this.exchange.clock.now();
    this.dirty.stops.add(stop);
    try {
      const order = this.place(
        stop.accountId,
        {
          instrument: stop.instrument,
          side: stop.side,
          type: stop.orderType,
          amount: this.text(stop.requestedAmount, 'amount', stop.instrument),
          price: this.text(activationLimitPrice(stop), 'price', stop.instrument),
          timeInForce: stop.timeInForce,
        },
        1,
      );
      stop.status = 'Activated';
      stop.activatedOrderId = order.id;
    } catch (error) {
      if (!(error instanceof AccountRejection)) throw error;
      stop.status = 'Rejected';
      stop.activationError = error.message;
    }
  }

  private text(units: bigint, what: 'amount' | 'price', instrument: string): string {
    const { spec } = this.terms.get(instrument)!;
    const scale = what === 'amount' ? spec.amountScale : spec.priceScale;
    const digits = units.toString().padStart(scale + 1, '0');
    return `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }

  /**
   * Runs an operation; the outermost one then activates the stop orders it triggered (whose orders
   * may trigger more) and announces every change.
   */
  private unitOfWork<T>(work: () => T): T {
    this.depth += 1;
    try {
      return work();
    } finally {
      if (this.depth === 1) {
        try {
          for (;;) {
            const stop = this.triggered.shift();
            if (stop) this.activate(stop);
            else if (this.ocoCancels.length > 0) this.cancelLinked(this.ocoCancels.shift()!);
            else if (this.refills.length > 0) this.refill(this.refills.shift()!);
            else break;
          }
        } finally {
          this.depth = 0;
          this.announce();
        }
      } else this.depth -= 1;
    }
  }

  private announce(): void {
    const { trades, orders, stops, balances } = this.dirty;
    const events: AccountEvent[] = [
      ...trades.map(({ accountId, trade }): AccountEvent => ({ kind: 'trade', accountId, trade })),
      ...[...orders].map((order): AccountEvent => ({
        kind: 'order',
        accountId: order.accountId,
        order: { ...order },
      })),
      ...[...stops].map((stop): AccountEvent => ({
        kind: 'stopOrder',
        accountId: stop.accountId,
        stopOrder: { ...stop },
      })),
      ...[...balances.values()].map(({ accountId, asset }): AccountEvent => ({
        kind: 'balance',
        accountId,
        balance: this.balanceBook.balance(accountId, asset),
      })),
    ];
    trades.length = 0;
    orders.clear();
    stops.clear();
    balances.clear();
    if (!this.events.hasListeners) return;
    for (const event of events) this.events.emit(event);
  }

  private touchBalance(accountId: number, asset: string): void {
    this.dirty.balances.set(`${accountId}\u0000${asset}`, { accountId, asset });
  }

  private requireAccount(accountId: number): void {
    if (!this.accountIds.has(accountId)) this.invalid(`account ${accountId} is not a user account`);
  }

  private requireTradable(market: MarketSimulator, side: Side): void {
    const refusal = tradingRefusal(market, side);
    if (refusal) throw new AccountRejection(refusal.reason, refusal.message);
  }

  private marketOf(instrument: string): MarketSimulator {
    const market = this.exchange.market(instrument);
    if (!market)
      throw new AccountRejection('unknown_market', `Instrument ${JSON.stringify(instrument)} not found`);
    return market;
  }

  private termsOf(market: MarketSimulator): MarketTerms {
    return this.terms.get(market.instrument)!;
  }

  private units(text: string, scale: number, field: string): bigint {
    try {
      return parseUnits(text, scale);
    } catch (error) {
      if (!(error instanceof InvalidUnitsError)) throw error;
      this.invalid(`${field} must be a non-negative decimal with at most ${scale} decimals, got ${text}`);
    }
  }

  private invalid(message: string): never {
    throw new AccountRejection('invalid_order', message);
  }
}

interface Refusal {
  readonly reason: RejectionReason;
  readonly message: string;
}

/** Why the market takes no order of this side now: halted, paused, or one-sided. */
function tradingRefusal(market: MarketSimulator, side: Side): Refusal | undefined {
  const { spec } = market;
  if (market.status === 'Halted')
    return { reason: 'market_halted', message: `${spec.instrument} is halted: no new orders` };
  if (market.status === 'Paused')
    return { reason: 'market_paused', message: `${spec.instrument} is paused: placement is rejected` };
  const sideName = side === Side.Buy ? 'Buy' : 'Sell';
  if (spec.side !== 'BuySell' && spec.side !== sideName)
    return { reason: 'side_not_allowed', message: `${spec.instrument} accepts ${spec.side} orders only` };
  return undefined;
}

/**
 * The price a limit order's deviation is measured from: the best ask for a buy and the best bid for
 * a sell (the price it would trade at), the same side's best when the other side is empty.
 */
function deviationReference(market: MarketSimulator, side: Side): bigint | undefined {
  const ask = market.bestPrice(Side.Sell);
  const bid = market.bestPrice(Side.Buy);
  return side === Side.Buy ? (ask ?? bid) : (bid ?? ask);
}

/**
 * A stop order activates when the last price reaches its activation price from where the price was
 * at creation; without a last price, or exactly at it, a buy waits for a rise and a sell for a fall.
 */
function triggerOf(activationPrice: bigint, lastPrice: bigint | undefined, side: Side): StopTrigger {
  if (lastPrice === undefined || lastPrice === activationPrice) return side === Side.Buy ? 'rise' : 'fall';
  return activationPrice > lastPrice ? 'rise' : 'fall';
}

/** Where a trailing stop's activation price stands for a last price: `amount` below it for a sell, above for a buy. */
function trailingLevel(lastPrice: bigint, amount: bigint, side: Side): bigint | undefined {
  const level = side === Side.Buy ? lastPrice + amount : lastPrice - amount;
  return level > 0n ? level : undefined;
}

/** The limit price of the order a stop places: a trailing limit's is the offset from where it activated. */
function activationLimitPrice(stop: AccountStopOrder): bigint {
  if (stop.trailingAmount === undefined || stop.orderType !== 'limit') return stop.requestedPrice;
  if (stop.side === Side.Buy) return stop.activationPrice + (stop.limitOffset ?? 0n);
  const price = stop.activationPrice - (stop.limitOffset ?? 0n);
  return price > 0n ? price : 1n;
}
