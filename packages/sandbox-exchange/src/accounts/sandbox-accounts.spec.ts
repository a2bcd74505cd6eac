import { Side } from '../engine/side';
import { formatUnits } from '../engine/units';
import { defaultMarkets } from '../market/default-markets';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { parseUsers } from '../users/users-file';
import { AccountEvent } from './account-event';
import { AccountRejection } from './account-rejection';
import { BALANCE_SCALE } from './balance-units';
import { PlaceOrderRequest, SandboxAccounts } from './sandbox-accounts';
import { balanceOf, limit } from './testing/account-requests';
import { MAX_ACTIVE_STOP_ORDERS } from './stop-order';

const BUYER = 1;
const SELLER = 2;

/** Two users on btc_usdt (fees: maker 0.001, taker 0.002) with empty books, plus the halted and paused markets. */
function setup() {
  let now = Date.UTC(2026, 0, 2, 3, 4, 5);
  const markets = defaultMarkets().filter((spec) =>
    ['btc_usdt', 'ltc_btc', 'xrp_usdt'].includes(spec.instrument),
  );
  const exchange = new SandboxExchange({
    markets,
    seed: 1,
    flowRate: 0,
    historyHours: 0,
    restingOrders: 10,
    clock: { now: () => now },
  });
  const users = parseUsers([
    { userId: 1, email: 'buyer@example.com', password: 'x', balances: { btc: '1', usdt: '100000' } },
    { userId: 2, email: 'seller@example.com', password: 'x', balances: { btc: '10', usdt: '10' } },
  ]);
  const accounts = new SandboxAccounts(exchange, users);
  const events: AccountEvent[] = [];
  accounts.events.subscribe((event) => events.push(event));
  const market = exchange.market('btc_usdt')!;
  return {
    exchange,
    accounts,
    events,
    market,
    advance: (ms: number) => (now += ms),
  };
}

const marketOrder = (side: Side, amount: string, timeInForce: 'ioc' | 'fok' = 'ioc'): PlaceOrderRequest => ({
  instrument: 'btc_usdt',
  side,
  type: 'market',
  amount,
  timeInForce,
});

function rejection(work: () => unknown): AccountRejection {
  try {
    work();
  } catch (error) {
    if (error instanceof AccountRejection) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('SandboxAccounts', () => {
  it('starts every account with its user balances', () => {
    const { accounts } = setup();
    expect(balanceOf(accounts, BUYER, 'usdt')).toEqual({ available: '100000', locked: '0' });
    expect(balanceOf(accounts, SELLER, 'btc')).toEqual({ available: '10', locked: '0' });
    expect(accounts.hasAccount(3)).toBe(false);
  });

  it('rests a limit buy in the engine and locks its price x amount plus the larger fee', () => {
    const { accounts, market, events } = setup();
    const order = accounts.placeOrder(BUYER, limit(Side.Buy, '60000', '0.5'));
    expect(order).toMatchObject({ status: 'Working', filled: 0n, source: 0 });
    expect(market.engine.order(order.id)?.remaining).toBe(50_000_000n);
    expect(market.bestPrice(Side.Buy)).toBe(6_000_000n);
    // 60000 x 0.5 x 1.002
    expect(balanceOf(accounts, BUYER, 'usdt')).toEqual({ available: '69940', locked: '30060' });
    expect(events.map((event) => event.kind)).toEqual(['order', 'balance']);
    expect(accounts.openOrders(BUYER).map((open) => open.id)).toEqual([order.id]);
  });

  it('settles a fill: the maker pays value + maker fee, the taker gets value - taker fee, through the public tape', () => {
    const { accounts, market } = setup();
    const bid = accounts.placeOrder(BUYER, limit(Side.Buy, '60000', '0.5'));
    const sell = accounts.placeOrder(SELLER, limit(Side.Sell, '59000', '0.2'));

    expect(sell).toMatchObject({ status: 'Completed', filled: 20_000_000n });
    const trade = market.tradeLog.last()!;
    expect(trade).toMatchObject({
      price: 6_000_000n,
      amount: 20_000_000n,
      makerOrderId: bid.id,
      takerOrderId: sell.id,
    });
    // seller: 10 + 12000 - 0.2% of 12000; 0.2 btc gone
    expect(balanceOf(accounts, SELLER, 'usdt')).toEqual({ available: '11986', locked: '0' });
    expect(balanceOf(accounts, SELLER, 'btc')).toEqual({ available: '9.8', locked: '0' });
    // buyer: paid 12000 + 12 of the 12024 locked for 0.2; 0.3 x 60000 x 1.002 = 18036 stays locked
    expect(balanceOf(accounts, BUYER, 'usdt')).toEqual({ available: '69952', locked: '18036' });
    expect(balanceOf(accounts, BUYER, 'btc')).toEqual({ available: '1.2', locked: '0' });
    expect(accounts.order(BUYER, String(bid.id))).toMatchObject({ status: 'Working', filled: 20_000_000n });
    const [buyerTrade] = accounts.trades(BUYER);
    expect(buyerTrade).toMatchObject({ tradeId: trade.id, orderId: bid.id, maker: true, side: Side.Buy });
    expect(formatUnits(buyerTrade.commission, BALANCE_SCALE)).toBe('12');
    expect(formatUnits(accounts.trades(SELLER)[0].commission, BALANCE_SCALE)).toBe('24');
  });

  it('cancels by id or clientOrderId and releases what the order still locks', () => {
    const { accounts, market } = setup();
    const clientOrderId = '6f1c2a9e-1b2c-4d3e-8f40-123456789abc';
    const bid = accounts.placeOrder(BUYER, limit(Side.Buy, '60000', '0.5', { clientOrderId }));
    accounts.placeOrder(SELLER, limit(Side.Sell, '60000', '0.1'));

    const cancelled = accounts.cancelOrder(BUYER, clientOrderId.toUpperCase());
    expect(cancelled).toMatchObject({ id: bid.id, status: 'Cancelled', filled: 10_000_000n, reserved: 0n });
    expect(market.engine.order(bid.id)).toBeUndefined();
    expect(balanceOf(accounts, BUYER, 'usdt')).toEqual({ available: '93994', locked: '0' });

    expect(rejection(() => accounts.cancelOrder(BUYER, String(bid.id))).reason).toBe('order_not_open');
    expect(rejection(() => accounts.cancelOrder(BUYER, '42')).reason).toBe('order_not_found');
    expect(rejection(() => accounts.cancelOrder(SELLER, String(bid.id))).reason).toBe('order_not_found');
  });

  it('keeps clientOrderId unique among open orders, and finds the open one first, else the last', () => {
    const { accounts } = setup();
    const clientOrderId = '6f1c2a9e-1b2c-4d3e-8f40-123456789abc';
    const first = accounts.placeOrder(BUYER, limit(Side.Buy, '60000', '0.01', { clientOrderId }));
    const duplicate = rejection(() =>
      accounts.placeOrder(BUYER, limit(Side.Buy, '60001', '0.01', { clientOrderId })),
    );
    expect(duplicate).toMatchObject({ reason: 'duplicate_client_order_id', orderId: undefined });
    expect(accounts.orders(BUYER)).toHaveLength(1);
    // another user may use the same id
    accounts.placeOrder(SELLER, limit(Side.Sell, '61000', '0.01', { clientOrderId }));

    accounts.cancelOrder(BUYER, clientOrderId);
    const second = accounts.placeOrder(BUYER, limit(Side.Buy, '60000', '0.01', { clientOrderId }));
    expect(accounts.order(BUYER, clientOrderId)?.id).toBe(second.id);
    accounts.cancelOrder(BUYER, clientOrderId);
    expect(accounts.order(BUYER, clientOrderId)?.id).toBe(second.id);
    expect(accounts.order(BUYER, String(first.id))?.status).toBe('Cancelled');

    const zero = rejection(() =>
      accounts.placeOrder(
        BUYER,
        limit(Side.Buy, '60000', '0.01', { clientOrderId: '00000000-0000-0000-0000-000000000000' }),
      ),
    );
    expect(zero.reason).toBe('invalid_order');
  });

  it('fills a market order at once and drops the rest (ioc), or fills nothing when it cannot fill in full (fok)', () => {
    const { accounts } = setup();
    accounts.placeOrder(SELLER, limit(Side.Sell, '60000', '0.1'));
    accounts.placeOrder(SELLER, limit(Side.Sell, '60100', '0.1'));

    const fok = accounts.placeOrder(BUYER, marketOrder(Side.Buy, '0.3', 'fok'));
    expect(fok).toMatchObject({ status: 'Cancelled', filled: 0n });
    expect(accounts.trades(BUYER)).toHaveLength(0);

    const ioc = accounts.placeOrder(BUYER, marketOrder(Side.Buy, '0.3'));
    expect(ioc).toMatchObject({ status: 'Cancelled', filled: 20_000_000n });
    // 6000 + 6010 plus 0.2% taker fee; nothing stays locked
    expect(balanceOf(accounts, BUYER, 'usdt')).toEqual({ available: '87965.98', locked: '0' });
    expect(balanceOf(accounts, BUYER, 'btc')).toEqual({ available: '1.2', locked: '0' });

    const fokLimit = accounts.placeOrder(SELLER, limit(Side.Sell, '50000', '1', { timeInForce: 'fok' }));
    expect(fokLimit.status).toBe('Cancelled');
    expect(balanceOf(accounts, SELLER, 'btc').locked).toBe('0');
  });

  it('rejects by the market rules and the balance, recording the order as Rejected', () => {
    const { accounts, market } = setup();
    accounts.placeOrder(SELLER, limit(Side.Sell, '60000', '0.1'));
    const cases: [PlaceOrderRequest, string][] = [
      [limit(Side.Buy, '60000', '0.00009'), 'amount_below_minimum'],
      [limit(Side.Buy, '69001', '0.01'), 'price_deviation'],
      [limit(Side.Buy, '50999', '0.01'), 'price_deviation'],
      [limit(Side.Buy, '60000', '2'), 'insufficient_balance'],
      [marketOrder(Side.Sell, '1.5'), 'insufficient_balance'],
      [{ ...limit(Side.Buy, '0.001', '1'), instrument: 'ltc_btc' }, 'market_halted'],
      [{ ...limit(Side.Buy, '0.5', '10'), instrument: 'xrp_usdt' }, 'market_paused'],
    ];
    for (const [request, reason] of cases) {
      const refused = rejection(() => accounts.placeOrder(BUYER, request));
      expect(refused.reason).toBe(reason);
      expect(accounts.order(BUYER, String(refused.orderId))).toMatchObject({
        status: 'Rejected',
        rejectDetails: refused.message,
      });
    }
    expect(accounts.placeOrder(BUYER, limit(Side.Buy, '51000', '0.01')).status).toBe('Working');
    expect(market.engine.restingOrderCount).toBe(2);
    expect(balanceOf(accounts, BUYER, 'btc')).toEqual({ available: '1', locked: '0' });
  });

  it('refuses malformed orders without recording them', () => {
    const { accounts } = setup();
    const cases: PlaceOrderRequest[] = [
      limit(Side.Buy, '60000.001', '0.1'),
      limit(Side.Buy, '60000', '0.123456789'),
      limit(Side.Buy, '0', '0.1'),
      limit(Side.Buy, '60000', '0'),
      { ...limit(Side.Buy, '60000', '0.1'), price: undefined },
    ];
    for (const request of cases)
      expect(rejection(() => accounts.placeOrder(BUYER, request)).reason).toBe('invalid_order');
    expect(
      rejection(() => accounts.placeOrder(BUYER, { ...limit(Side.Buy, '1', '1'), instrument: 'abc_def' }))
        .reason,
    ).toBe('unknown_market');
    expect(rejection(() => accounts.placeOrder(3, limit(Side.Buy, '60000', '0.1'))).reason).toBe(
      'invalid_order',
    );
    expect(accounts.orders(BUYER)).toHaveLength(0);
  });

  it('activates a stop order when the last price reaches its activation price, as an order of source 1', () => {
    const { accounts, events } = setup();
    accounts.placeOrder(SELLER, limit(Side.Sell, '60000', '0.1'));
    accounts.placeOrder(BUYER, limit(Side.Buy, '60000', '0.05'));
    const stop = accounts.createStopOrder(BUYER, {
      instrument: 'btc_usdt',
      orderType: 'market',
      side: Side.Buy,
      requestedAmount: '0.02',
      requestedPrice: '0',
      activationPrice: '60500',
      timeInForce: 'ioc',
    });
    expect(stop).toMatchObject({ status: 'WaitingForActivation', trigger: 'rise' });
    accounts.placeOrder(SELLER, limit(Side.Sell, '60600', '1'));
    accounts.placeOrder(BUYER, limit(Side.Buy, '60400', '0.05'));
    expect(accounts.stopOrder(BUYER, stop.id)?.status).toBe('WaitingForActivation');

    events.length = 0;
    accounts.placeOrder(BUYER, limit(Side.Buy, '60600', '0.01'));
    const activated = accounts.stopOrder(BUYER, stop.id)!;
    expect(activated.status).toBe('Activated');
    const order = accounts.order(BUYER, String(activated.activatedOrderId))!;
    expect(order).toMatchObject({ source: 1, type: 'market', status: 'Completed', filled: 2_000_000n });
    expect(events.some((event) => event.kind === 'stopOrder' && event.stopOrder.status === 'Activated')).toBe(
      true,
    );
    expect(rejection(() => accounts.deleteStopOrder(BUYER, stop.id)).reason).toBe('stop_order_not_waiting');
  });

  it('rejects a stop order whose activation fails, with the reason', () => {
    const { accounts } = setup();
    const stop = accounts.createStopOrder(SELLER, {
      instrument: 'btc_usdt',
      orderType: 'limit',
      side: Side.Buy,
      requestedAmount: '1',
      requestedPrice: '60000',
      activationPrice: '59000',
      timeInForce: 'gtc',
    });
    expect(stop.trigger).toBe('rise');
    accounts.placeOrder(SELLER, limit(Side.Sell, '59000', '0.1'));
    accounts.placeOrder(BUYER, marketOrder(Side.Buy, '0.1'));
    expect(accounts.stopOrder(SELLER, stop.id)).toMatchObject({
      status: 'Rejected',
      activationError: expect.stringContaining('Insufficient usdt'),
    });
  });

  it('deletes only waiting stop orders and keeps at most 1000 waiting', () => {
    const { accounts } = setup();
    const request = {
      instrument: 'btc_usdt',
      orderType: 'limit' as const,
      side: Side.Sell,
      requestedAmount: '0.001',
      requestedPrice: '50000',
      activationPrice: '50000',
      timeInForce: 'gtc' as const,
    };
    const first = accounts.createStopOrder(SELLER, request);
    for (let i = 1; i < MAX_ACTIVE_STOP_ORDERS; i++) accounts.createStopOrder(SELLER, request);
    expect(rejection(() => accounts.createStopOrder(SELLER, request)).reason).toBe('stop_order_limit');
    expect(accounts.deleteStopOrder(SELLER, first.id).id).toBe(first.id);
    expect(accounts.stopOrder(SELLER, first.id)).toBeUndefined();
    expect(rejection(() => accounts.deleteStopOrder(SELLER, first.id)).reason).toBe('stop_order_not_found');
    expect(accounts.createStopOrder(SELLER, request).status).toBe('WaitingForActivation');
    expect(rejection(() => accounts.createStopOrder(SELLER, { ...request, timeInForce: 'ioc' })).reason).toBe(
      'invalid_order',
    );
    expect(
      rejection(() => accounts.createStopOrder(SELLER, { ...request, requestedAmount: '0.00001' })).reason,
    ).toBe('amount_below_minimum');
    expect(
      rejection(() =>
        accounts.createStopOrder(SELLER, { ...request, instrument: 'ltc_btc', requestedAmount: '1' }),
      ).reason,
    ).toBe('market_halted');
  });

  it('fills a resting user order from the synthetic flow, through the same engine', () => {
    const { exchange, accounts, market } = setup();
    exchange.prepare();
    const bestBid = market.bestPrice(Side.Buy)!;
    const order = accounts.placeOrder(SELLER, limit(Side.Sell, formatUnits(bestBid + 1n, 2), '0.5'));
    for (let i = 0; i < 5000 && accounts.order(SELLER, String(order.id))!.filled === 0n; i++)
      exchange.stepMarket(market, 1);
    const filled = accounts.order(SELLER, String(order.id))!;
    expect(filled.filled).toBeGreaterThan(0n);
    const [trade] = accounts.trades(SELLER);
    expect(trade.maker).toBe(true);
    expect(market.tradeLog.newest(10_000).some((publicTrade) => publicTrade.id === trade.tradeId)).toBe(true);
  });

  describe('with matching stopped (the stop-matching fault)', () => {
    it('rests crossing orders with their funds locked and cancels a market order unfilled', () => {
      const { exchange, accounts, market } = setup();
      exchange.faults.set('stop-matching', true, { instrument: 'btc_usdt' });
      const bid = accounts.placeOrder(BUYER, limit(Side.Buy, '60000', '0.5'));
      const ask = accounts.placeOrder(SELLER, limit(Side.Sell, '59000', '0.2'));

      expect([bid.status, ask.status]).toEqual(['Working', 'Working']);
      expect(market.bestPrice(Side.Buy)).toBe(6_000_000n);
      expect(market.bestPrice(Side.Sell)).toBe(5_900_000n);
      expect(balanceOf(accounts, BUYER, 'usdt')).toEqual({ available: '69940', locked: '30060' });
      expect(balanceOf(accounts, SELLER, 'btc')).toEqual({ available: '9.8', locked: '0.2' });

      const marketBuy = accounts.placeOrder(BUYER, marketOrder(Side.Buy, '0.1'));
      expect(marketBuy).toMatchObject({ status: 'Cancelled', filled: 0n, reserved: 0n });
      expect(balanceOf(accounts, BUYER, 'usdt')).toEqual({ available: '69940', locked: '30060' });
      expect(market.tradeLog.last()).toBeUndefined();
    });

    it('settles the uncrossing trades when switched off: the order that rested first is the maker, at its price', () => {
      const { exchange, accounts, market, events } = setup();
      exchange.faults.set('stop-matching', true, { instrument: 'btc_usdt' });
      const bid = accounts.placeOrder(BUYER, limit(Side.Buy, '60000', '0.5'));
      const ask = accounts.placeOrder(SELLER, limit(Side.Sell, '59000', '0.2'));
      events.length = 0;

      exchange.faults.set('stop-matching', false);

      expect(market.tradeLog.last()).toMatchObject({
        price: 6_000_000n,
        amount: 20_000_000n,
        makerOrderId: bid.id,
        takerOrderId: ask.id,
        takerSide: Side.Sell,
      });
      expect(market.bestPrice(Side.Sell)).toBeUndefined();
      expect(accounts.order(SELLER, String(ask.id))).toMatchObject({ status: 'Completed', reserved: 0n });
      expect(accounts.order(BUYER, String(bid.id))).toMatchObject({ status: 'Working', filled: 20_000_000n });
      // The same figures as the seller's sell meeting the resting bid with matching on.
      expect(balanceOf(accounts, SELLER, 'usdt')).toEqual({ available: '11986', locked: '0' });
      expect(balanceOf(accounts, SELLER, 'btc')).toEqual({ available: '9.8', locked: '0' });
      expect(balanceOf(accounts, BUYER, 'usdt')).toEqual({ available: '69952', locked: '18036' });
      expect(balanceOf(accounts, BUYER, 'btc')).toEqual({ available: '1.2', locked: '0' });
      expect(accounts.trades(BUYER)).toEqual([expect.objectContaining({ orderId: bid.id, maker: true })]);
      expect(accounts.trades(SELLER)).toEqual([expect.objectContaining({ orderId: ask.id, maker: false })]);
      expect(events.filter((event) => event.kind === 'trade')).toHaveLength(2);
    });

    it('charges the later order as the taker at the earlier price when the ask rested first', () => {
      const { exchange, accounts, market } = setup();
      exchange.faults.set('stop-matching', true, { instrument: 'btc_usdt' });
      const ask = accounts.placeOrder(SELLER, limit(Side.Sell, '59000', '0.2'));
      const bid = accounts.placeOrder(BUYER, limit(Side.Buy, '60000', '0.5'));

      exchange.faults.set('stop-matching', false);

      expect(market.tradeLog.last()).toMatchObject({
        price: 5_900_000n,
        makerOrderId: ask.id,
        takerOrderId: bid.id,
        takerSide: Side.Buy,
      });
      // buyer: 11800 + 0.2% taker fee paid; 0.3 x 60000 x 1.002 = 18036 still locked
      expect(balanceOf(accounts, BUYER, 'usdt')).toEqual({ available: '70140.4', locked: '18036' });
      expect(balanceOf(accounts, BUYER, 'btc')).toEqual({ available: '1.2', locked: '0' });
      // seller: 11800 - 0.1% maker fee
      expect(balanceOf(accounts, SELLER, 'usdt')).toEqual({ available: '11798.2', locked: '0' });
      expect(accounts.order(SELLER, String(ask.id))).toMatchObject({ status: 'Completed' });
      expect(accounts.order(BUYER, String(bid.id))).toMatchObject({ status: 'Working', filled: 20_000_000n });
    });
  });
});
