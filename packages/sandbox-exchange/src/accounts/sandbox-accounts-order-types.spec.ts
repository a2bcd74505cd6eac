import { Side } from '../engine/side';
import { defaultMarkets } from '../market/default-markets';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { parseUsers } from '../users/users-file';
import { AccountRejection } from './account-rejection';
import { SandboxAccounts } from './sandbox-accounts';
import { balanceOf, limit } from './testing/account-requests';

const BUYER = 1;
const SELLER = 2;

/** Two users on btc_usdt (maker fee 0.001, taker 0.002; prices at 2 decimals, amounts at 8). */
function setup() {
  const markets = defaultMarkets().filter((spec) => spec.instrument === 'btc_usdt');
  const exchange = new SandboxExchange({
    markets,
    seed: 1,
    flowRate: 0,
    historyHours: 0,
    restingOrders: 10,
    clock: { now: () => Date.UTC(2026, 0, 2, 3, 4, 5) },
  });
  const users = parseUsers([
    { userId: 1, email: 'buyer@example.com', password: 'x', balances: { btc: '1', usdt: '100000' } },
    { userId: 2, email: 'seller@example.com', password: 'x', balances: { btc: '10', usdt: '100000' } },
  ]);
  const accounts = new SandboxAccounts(exchange, users);
  return { exchange, accounts, market: exchange.market('btc_usdt')! };
}

/** What the account's working orders reserve, by asset: locked must always equal it. */
function reservedByOrders(accounts: SandboxAccounts, accountId: number, asset: string): bigint {
  return accounts
    .openOrders(accountId)
    .filter((order) => order.reserveAsset === asset)
    .reduce((sum, order) => sum + order.reserved, 0n);
}

function rejection(work: () => unknown): AccountRejection {
  try {
    work();
  } catch (error) {
    if (error instanceof AccountRejection) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('SandboxAccounts order types', () => {
  it('gives stop orders ids from the order ids, so that no id names both', () => {
    const { accounts } = setup();
    accounts.placeOrder(SELLER, limit(Side.Sell, '60000', '0.1'));
    const order = accounts.placeOrder(BUYER, limit(Side.Buy, '59000', '0.01'));
    const stop = accounts.createStopOrder(BUYER, {
      instrument: 'btc_usdt',
      orderType: 'market',
      side: Side.Buy,
      requestedAmount: '0.01',
      requestedPrice: '0',
      activationPrice: '61000',
      timeInForce: 'ioc',
    });
    expect(stop.id).toBeGreaterThan(order.id);
    expect(accounts.orderById(stop.id)).toBeUndefined();
    expect(accounts.stopOrderById(stop.id)?.accountId).toBe(BUYER);
    expect(accounts.orderById(order.id)?.accountId).toBe(BUYER);
  });

  it('shows only the display amount of a reserve order and puts the next slice in the book when one fills', () => {
    const { accounts, market } = setup();
    const reserve = accounts.placeOrder(BUYER, limit(Side.Buy, '60000', '0.5', { displayAmount: '0.2' }));
    expect(reserve).toMatchObject({ status: 'Working', amount: 50_000_000n, displayAmount: 20_000_000n });
    expect([...market.engine.levels(Side.Buy)][0]).toMatchObject({ price: 6_000_000n, amount: 20_000_000n });
    // The whole order locks: 0.5 x 60000 x 1.002.
    expect(balanceOf(accounts, BUYER, 'usdt')).toEqual({ available: '69940', locked: '30060' });

    // A sell of 0.3 takes the first slice and 0.1 of the next one.
    const sell = accounts.placeOrder(SELLER, limit(Side.Sell, '60000', '0.3'));
    expect(sell.status).toBe('Working');
    expect(sell.filled).toBe(20_000_000n);
    // The next slice joined the book and traded against the resting sell at once, as a taker.
    const after = accounts.order(BUYER, String(reserve.id))!;
    expect(after.filled).toBe(30_000_000n);
    expect(after.status).toBe('Working');
    expect([...market.engine.levels(Side.Buy)][0]).toMatchObject({ price: 6_000_000n, amount: 10_000_000n });
    expect(reservedByOrders(accounts, BUYER, 'usdt')).toBe(accounts.balance(BUYER, 'usdt').locked);
    expect(accounts.trades(BUYER).map((trade) => [trade.maker, trade.amount])).toEqual([
      [true, 20_000_000n],
      [false, 10_000_000n],
    ]);

    // Cancelling takes the current slice out of the book and releases the rest.
    accounts.cancelOrder(BUYER, String(reserve.id));
    expect([...market.engine.levels(Side.Buy)]).toEqual([]);
    expect(accounts.balance(BUYER, 'usdt').locked).toBe(0n);
  });

  it('completes a reserve order slice by slice', () => {
    const { accounts } = setup();
    const reserve = accounts.placeOrder(SELLER, limit(Side.Sell, '60000', '0.3', { displayAmount: '0.1' }));
    for (let i = 0; i < 3; i++) accounts.placeOrder(BUYER, limit(Side.Buy, '60000', '0.1'));
    expect(accounts.order(SELLER, String(reserve.id))).toMatchObject({
      status: 'Completed',
      filled: 30_000_000n,
    });
    expect(accounts.balance(SELLER, 'btc').locked).toBe(0n);
    expect(accounts.openOrders(BUYER)).toEqual([]);
  });

  it('refuses a display amount on anything but a good-til-cancelled limit order, or above the amount', () => {
    const { accounts } = setup();
    for (const request of [
      limit(Side.Buy, '60000', '0.1', { displayAmount: '0.2' }),
      limit(Side.Buy, '60000', '0.1', { displayAmount: '0' }),
      limit(Side.Buy, '60000', '0.1', { displayAmount: '0.05', timeInForce: 'ioc' }),
    ])
      expect(rejection(() => accounts.placeOrder(BUYER, request)).reason).toBe('invalid_order');
  });

  it('cancels an order when the order it is linked to (one-cancels-other) executes', () => {
    const { accounts } = setup();
    accounts.placeOrder(SELLER, limit(Side.Sell, '61000', '1'));
    const takeProfit = accounts.placeOrder(BUYER, limit(Side.Buy, '59000', '0.1'));
    const linked = accounts.placeOrder(BUYER, limit(Side.Buy, '58000', '0.1', { ocoOrderId: takeProfit.id }));
    const unrelated = accounts.placeOrder(BUYER, limit(Side.Buy, '58500', '0.1'));
    accounts.placeOrder(SELLER, limit(Side.Sell, '59000', '0.05'));
    expect(accounts.order(BUYER, String(takeProfit.id))?.status).toBe('Working');
    expect(accounts.order(BUYER, String(linked.id))?.status).toBe('Cancelled');
    expect(accounts.order(BUYER, String(unrelated.id))?.status).toBe('Working');
    expect(reservedByOrders(accounts, BUYER, 'usdt')).toBe(accounts.balance(BUYER, 'usdt').locked);
    // The link names a working order of the same account.
    expect(
      rejection(() =>
        accounts.placeOrder(SELLER, limit(Side.Sell, '62000', '0.1', { ocoOrderId: takeProfit.id })),
      ).reason,
    ).toBe('invalid_order');
    expect(
      rejection(() => accounts.placeOrder(BUYER, limit(Side.Buy, '58000', '0.1', { ocoOrderId: linked.id })))
        .reason,
    ).toBe('invalid_order');
  });

  /** Trades `amount` at `price` between the two users on an empty book: sets the last price. */
  function tradeAt(accounts: SandboxAccounts, price: string, amount = '0.01'): void {
    accounts.placeOrder(SELLER, limit(Side.Sell, price, amount));
    accounts.placeOrder(BUYER, limit(Side.Buy, price, amount));
  }

  const trailingStop = (side: Side, orderType: 'market' | 'limit', amount: string, limitOffset?: string) => ({
    instrument: 'btc_usdt',
    orderType,
    side,
    requestedAmount: '0.01',
    requestedPrice: '0',
    activationPrice: '0',
    timeInForce: orderType === 'limit' ? ('gtc' as const) : ('ioc' as const),
    trailing: { amount, ...(limitOffset ? { limitOffset } : {}) },
  });

  it('moves a trailing sell stop up with the price, never down, and activates it when the price falls back', () => {
    const { accounts, market } = setup();
    tradeAt(accounts, '60000');
    const stop = accounts.createStopOrder(SELLER, trailingStop(Side.Sell, 'limit', '500', '100'));
    expect(stop).toMatchObject({ activationPrice: 5_950_000n, trigger: 'fall' });
    tradeAt(accounts, '60400');
    expect(accounts.stopOrderById(stop.id)?.activationPrice).toBe(5_990_000n);
    tradeAt(accounts, '60100');
    expect(accounts.stopOrderById(stop.id)).toMatchObject({
      status: 'WaitingForActivation',
      activationPrice: 5_990_000n,
    });
    tradeAt(accounts, '59900');
    const activated = accounts.stopOrderById(stop.id)!;
    expect(activated.status).toBe('Activated');
    // A limit sell at the activation price less the offset, resting on the empty book.
    const order = accounts.orderById(activated.activatedOrderId!)!;
    expect(order).toMatchObject({
      type: 'limit',
      side: Side.Sell,
      source: 1,
      status: 'Working',
      price: 5_980_000n,
    });
    expect(market.bestPrice(Side.Sell)).toBe(5_980_000n);
    expect(accounts.balance(SELLER, 'btc').locked).toBe(reservedByOrders(accounts, SELLER, 'btc'));
  });

  it('moves a trailing buy stop down with the price and activates it as a market order on the rise', () => {
    const { accounts } = setup();
    expect(
      rejection(() => accounts.createStopOrder(BUYER, trailingStop(Side.Buy, 'market', '300'))).reason,
    ).toBe('invalid_order');
    tradeAt(accounts, '60000');
    const stop = accounts.createStopOrder(BUYER, trailingStop(Side.Buy, 'market', '300'));
    expect(stop).toMatchObject({ activationPrice: 6_030_000n, trigger: 'rise' });
    tradeAt(accounts, '59800');
    expect(accounts.stopOrderById(stop.id)?.activationPrice).toBe(6_010_000n);
    accounts.placeOrder(SELLER, limit(Side.Sell, '60100', '0.02'));
    accounts.placeOrder(BUYER, limit(Side.Buy, '60100', '0.01'));
    const activated = accounts.stopOrderById(stop.id)!;
    expect(activated.status).toBe('Activated');
    const order = accounts.orderById(activated.activatedOrderId!)!;
    expect(order).toMatchObject({ type: 'market', status: 'Completed', filled: 1_000_000n });
  });
});
