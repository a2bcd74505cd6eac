import fc from 'fast-check';
import { Side } from '../engine/side';
import { formatUnits, parseUnits } from '../engine/units';
import { defaultMarkets } from '../market/default-markets';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { parseUsers } from '../users/users-file';
import { AccountRejection } from './account-rejection';
import { BALANCE_SCALE, grossCost, RATE_SCALE, toBalanceUnits } from './balance-units';
import { SandboxAccounts } from './sandbox-accounts';

const INSTRUMENTS = ['btc_usdt', 'eth_btc'] as const;
const ACCOUNTS = [1, 2] as const;
const STARTING: Record<string, string> = { btc: '4', usdt: '150000', eth: '60' };

type Command =
  | {
      kind: 'place';
      account: number;
      instrument: number;
      side: Side;
      style: 'gtc' | 'fok-limit' | 'ioc-market' | 'fok-market';
      offsetBp: number;
      minimums: number;
    }
  | { kind: 'cancel'; account: number; pick: number }
  | { kind: 'step'; instrument: number; count: number }
  | {
      kind: 'stop';
      account: number;
      instrument: number;
      side: Side;
      offsetBp: number;
      limit: boolean;
      minimums: number;
    }
  | { kind: 'deleteStop'; account: number; pick: number };

const account = fc.constantFrom(...ACCOUNTS);
const instrument = fc.integer({ min: 0, max: INSTRUMENTS.length - 1 });
const side = fc.constantFrom(Side.Buy, Side.Sell);

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      account,
      instrument,
      side,
      style: fc.constantFrom(
        'gtc' as const,
        'fok-limit' as const,
        'ioc-market' as const,
        'fok-market' as const,
      ),
      offsetBp: fc.oneof(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -1500, max: 1500 })),
      minimums: fc.integer({ min: 1, max: 4000 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), account, pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('step' as const),
      instrument,
      count: fc.integer({ min: 1, max: 100 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('stop' as const),
      account,
      instrument,
      side,
      offsetBp: fc.integer({ min: -60, max: 60 }),
      limit: fc.boolean(),
      minimums: fc.integer({ min: 1, max: 2000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteStop' as const), account, pick: fc.nat() }) },
);

function setup(seed: number) {
  const markets = defaultMarkets().filter((spec) =>
    (INSTRUMENTS as readonly string[]).includes(spec.instrument),
  );
  const exchange = new SandboxExchange({ markets, seed, flowRate: 0, historyHours: 0, restingOrders: 40 });
  exchange.prepare();
  const users = parseUsers(
    ACCOUNTS.map((id) => ({ userId: id, email: `u${id}@example.com`, password: 'x', balances: STARTING })),
  );
  return { exchange, accounts: new SandboxAccounts(exchange, users) };
}

/** A price `offsetBp` basis points from the market's mid (or last) price, at the market's scale. */
function priceNear(exchange: SandboxExchange, name: string, offsetBp: number): string {
  const market = exchange.market(name)!;
  const bid = market.bestPrice(Side.Buy);
  const ask = market.bestPrice(Side.Sell);
  const reference =
    bid !== undefined && ask !== undefined
      ? (bid + ask) / 2n
      : (bid ??
        ask ??
        market.tradeLog.last()?.price ??
        parseUnits(market.spec.initialPrice, market.spec.priceScale));
  const price = (reference * BigInt(10_000 + offsetBp)) / 10_000n;
  return formatUnits(price > 0n ? price : 1n, market.spec.priceScale);
}

function amountOf(exchange: SandboxExchange, name: string, minimums: number): string {
  const { spec } = exchange.market(name)!;
  return formatUnits(parseUnits(spec.minAmount, spec.amountScale) * BigInt(minimums), spec.amountScale);
}

function run(exchange: SandboxExchange, accounts: SandboxAccounts, step: Command): void {
  switch (step.kind) {
    case 'place': {
      const name = INSTRUMENTS[step.instrument];
      const limit = step.style === 'gtc' || step.style === 'fok-limit';
      accounts.placeOrder(step.account, {
        instrument: name,
        side: step.side,
        type: limit ? 'limit' : 'market',
        price: limit ? priceNear(exchange, name, step.offsetBp) : undefined,
        amount: amountOf(exchange, name, step.minimums),
        timeInForce: step.style === 'gtc' ? 'gtc' : step.style === 'ioc-market' ? 'ioc' : 'fok',
      });
      return;
    }
    case 'cancel': {
      const open = accounts.openOrders(step.account);
      if (open.length > 0) accounts.cancelOrder(step.account, String(open[step.pick % open.length].id));
      return;
    }
    case 'step':
      exchange.stepMarket(exchange.market(INSTRUMENTS[step.instrument])!, step.count);
      return;
    case 'stop': {
      const name = INSTRUMENTS[step.instrument];
      accounts.createStopOrder(step.account, {
        instrument: name,
        orderType: step.limit ? 'limit' : 'market',
        side: step.side,
        requestedAmount: amountOf(exchange, name, step.minimums),
        requestedPrice: step.limit ? priceNear(exchange, name, step.side === Side.Buy ? 50 : -50) : '0',
        activationPrice: priceNear(exchange, name, step.offsetBp),
        timeInForce: step.limit ? 'gtc' : 'ioc',
      });
      return;
    }
    case 'deleteStop': {
      const waiting = accounts
        .stopOrders(step.account)
        .filter((stop) => stop.status === 'WaitingForActivation');
      if (waiting.length > 0) accounts.deleteStopOrder(step.account, waiting[step.pick % waiting.length].id);
      return;
    }
  }
}

/** Every invariant of the accounts against the engines and against an independent ledger of the trades. */
/** Plain checks: thousands of them run per property, too many for expect's bookkeeping. */
function same<T>(actual: T, expected: T, what: string): void {
  if (actual !== expected) throw new Error(`${what}: ${String(actual)}, expected ${String(expected)}`);
}

function checkInvariants(exchange: SandboxExchange, accounts: SandboxAccounts): void {
  for (const accountId of ACCOUNTS) {
    const expectedTotal = new Map<string, bigint>(
      Object.entries(STARTING).map(([asset, text]) => [asset, parseUnits(text, BALANCE_SCALE)]),
    );
    const add = (asset: string, units: bigint) =>
      expectedTotal.set(asset, (expectedTotal.get(asset) ?? 0n) + units);
    const filledByOrder = new Map<number, bigint>();
    for (const trade of accounts.trades(accountId)) {
      const { spec } = exchange.market(trade.instrument)!;
      const base = toBalanceUnits(trade.amount, spec.amountScale);
      if (trade.side === Side.Buy) {
        add(spec.baseAsset, base);
        add(spec.quoteAsset, -(trade.value + trade.commission));
      } else {
        add(spec.baseAsset, -base);
        add(spec.quoteAsset, trade.value - trade.commission);
      }
      filledByOrder.set(trade.orderId, (filledByOrder.get(trade.orderId) ?? 0n) + trade.amount);
    }
    const lockedByAsset = new Map<string, bigint>();
    for (const order of accounts.orders(accountId)) {
      const { spec } = exchange.market(order.instrument)!;
      same(order.filled, filledByOrder.get(order.id) ?? 0n, `order ${order.id} filled`);
      if (order.status !== 'Working') {
        same(order.reserved, 0n, `order ${order.id} reserved`);
        if (order.status === 'Completed') same(order.filled, order.amount, `order ${order.id} filled`);
        continue;
      }
      const remaining = order.amount - order.filled;
      same(
        exchange.market(order.instrument)!.engine.order(order.id)?.remaining,
        remaining,
        'engine remaining',
      );
      const maxFee = [spec.makerFee, spec.takerFee]
        .map((fee) => parseUnits(fee, RATE_SCALE))
        .reduce((a, b) => (a > b ? a : b));
      const reserve =
        order.side === Side.Buy
          ? grossCost(order.price, remaining, maxFee, spec.priceScale, spec.amountScale)
          : toBalanceUnits(remaining, spec.amountScale);
      same(order.reserved, reserve, `order ${order.id} reserved`);
      lockedByAsset.set(order.reserveAsset, (lockedByAsset.get(order.reserveAsset) ?? 0n) + reserve);
    }
    const assets = new Set([...expectedTotal.keys(), ...accounts.balances(accountId).map((b) => b.asset)]);
    for (const asset of assets) {
      const { available, locked } = accounts.balance(accountId, asset);
      same(available >= 0n, true, 'available >= 0');
      same(locked, lockedByAsset.get(asset) ?? 0n, `${accountId} ${asset} locked`);
      same(available + locked, expectedTotal.get(asset) ?? 0n, `${accountId} ${asset} available + locked`);
    }
  }
}

describe('SandboxAccounts properties', () => {
  it('keeps locked = what working orders reserve, available + locked = deposits + fills - fees, never negative', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(command, { minLength: 20, maxLength: 60 }),
        (seed, steps) => {
          const { exchange, accounts } = setup(seed);
          try {
            for (const step of steps) {
              try {
                run(exchange, accounts, step);
              } catch (error) {
                if (!(error instanceof AccountRejection)) throw error;
              }
              checkInvariants(exchange, accounts);
            }
          } finally {
            accounts.dispose();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
