import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BALANCE_SCALE, grossCost, RATE_SCALE } from '../src/accounts/balance-units';
import { Side } from '../src/engine/side';
import { formatUnits, parseUnits } from '../src/engine/units';
import { RunningSandbox } from '../src/start-sandbox';
import { ExactJson } from '../src/wire/exact-json';
import { GatewayTestClient } from './support/gateway-test-client';
import { DEMO_PRIVATE_KEY, expectOk, PrivateRestClient } from '../src/trader/private-rest-client';
import { startTestSandbox } from './support/start-test-sandbox';

type Fields = Record<string, ExactJson>;

interface Trader {
  readonly accountId: number;
  readonly gateway: GatewayTestClient;
  readonly rest: PrivateRestClient;
}

type Command =
  | {
      kind: 'limit';
      who: number;
      side: Side;
      offsetBp: number;
      lots: number;
      tif: 1 | 3 | 4;
      displayLots: number;
    }
  | { kind: 'market'; who: number; side: Side; lots: number; tif: 3 | 4 }
  | { kind: 'oco'; who: number; side: Side; offsetBp: number; lots: number; pick: number }
  | {
      kind: 'stop';
      who: number;
      side: Side;
      offsetBp: number;
      lots: number;
      limit: boolean;
      trailing: boolean;
    }
  | { kind: 'cancel'; who: number; pick: number }
  | { kind: 'flow'; count: number };

const who = fc.integer({ min: 0, max: 1 });
const side = fc.constantFrom(Side.Buy, Side.Sell);
const offsetBp = fc.integer({ min: -150, max: 150 });
const lots = fc.integer({ min: 1, max: 40 });

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('limit' as const),
    who,
    side,
    offsetBp,
    lots,
    tif: fc.constantFrom(1 as const, 1 as const, 3 as const, 4 as const),
    displayLots: fc.integer({ min: 0, max: 10 }),
  }),
  fc.record({
    kind: fc.constant('market' as const),
    who,
    side,
    lots,
    tif: fc.constantFrom(3 as const, 4 as const),
  }),
  fc.record({ kind: fc.constant('oco' as const), who, side, offsetBp, lots, pick: fc.nat() }),
  fc.record({
    kind: fc.constant('stop' as const),
    who,
    side,
    offsetBp,
    lots,
    limit: fc.boolean(),
    trailing: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cancel' as const), who, pick: fc.nat() }),
  fc.record({ kind: fc.constant('flow' as const), count: fc.integer({ min: 1, max: 30 }) }),
);

/** Units of the balance scale from exact decimal text. */
const units = (text: ExactJson) => parseUnits(String(text), BALANCE_SCALE);

/**
 * Random sequences of the gateway's private calls from two users on btc_usdt (limit orders of every
 * time in force, reserve orders, market orders, one-cancels-other links, stop and trailing stop
 * orders, cancels) mixed with synthetic flow. After every call, for each account: what the private
 * REST says is locked equals what the open orders the gateway lists reserve (a buy
 * `price x remaining x (1 + larger fee)`, a sell its remaining amount), and each asset's total moved
 * by exactly what the account's executions in GetTradesHistory paid and received, fees included.
 */
describe('sandbox gateway orders: balances stay consistent with open orders and fills', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  let traders: Trader[];
  let instrumentId: number;
  let newExecutions = 0;

  async function login(email: string, password: string): Promise<GatewayTestClient> {
    const { client, token } = await GatewayTestClient.logIn(sandbox, email, password);
    await client.call('WebAuthenticateUser', { SessionToken: token });
    return client;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-balances-'));
    const usersFile = join(dir, 'users.json');
    writeFileSync(
      usersFile,
      JSON.stringify([
        { userId: 1, email: 'demo@example.com', password: 'demo', accounts: [1], operator: true },
        {
          userId: 2,
          email: 'a@example.com',
          password: 'a',
          accounts: [20],
          balances: { btc: '2', usdt: '100000' },
        },
        {
          userId: 3,
          email: 'b@example.com',
          password: 'b',
          accounts: [30],
          balances: { btc: '2', usdt: '100000' },
        },
      ]),
    );
    sandbox = await startTestSandbox({
      SANDBOX_FLOW_RATE: '0',
      SANDBOX_RATE_LIMITS: 'false',
      SANDBOX_USERS_FILE: usersFile,
    });
    instrumentId = sandbox.exchange.market('btc_usdt')!.spec.instrumentId;
    traders = [
      {
        accountId: 20,
        gateway: await login('a@example.com', 'a'),
        rest: new PrivateRestClient(
          sandbox.baseUrl,
          '00000000-0000-4000-8000-000000000002',
          DEMO_PRIVATE_KEY,
        ),
      },
      {
        accountId: 30,
        gateway: await login('b@example.com', 'b'),
        rest: new PrivateRestClient(
          sandbox.baseUrl,
          '00000000-0000-4000-8000-000000000003',
          DEMO_PRIVATE_KEY,
        ),
      },
    ];
  });

  afterAll(async () => {
    await Promise.all((traders ?? []).map((trader) => trader.gateway.close()));
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function priceAt(side: Side, offsetBp: number): string {
    const market = sandbox.exchange.market('btc_usdt')!;
    const reference =
      market.bestPrice(side === Side.Buy ? Side.Sell : Side.Buy) ?? market.tradeLog.last()!.price;
    const price = reference + (reference * BigInt(offsetBp)) / 10_000n;
    return formatUnits(price > 0n ? price : 1n, 2);
  }

  async function openOrders(trader: Trader): Promise<Fields[]> {
    return (await trader.gateway.call('GetOpenOrders', { OMSId: 1, AccountId: trader.accountId }))
      .payload as Fields[];
  }

  async function run(trader: Trader, step: Command): Promise<void> {
    const base = { OMSId: 1, InstrumentId: instrumentId, AccountId: trader.accountId };
    const quantity = (count: number) => Number(formatUnits(BigInt(count) * 10_000n, 8));
    switch (step.kind) {
      case 'limit': {
        const reserve = step.tif === 1 && step.displayLots > 0 && step.displayLots < step.lots;
        await trader.gateway.call('SendOrder', {
          ...base,
          Side: step.side,
          OrderType: 2,
          Quantity: quantity(step.lots),
          LimitPrice: Number(priceAt(step.side, step.offsetBp)),
          TimeInForce: step.tif,
          ...(reserve ? { UseDisplayQuantity: true, DisplayQuantity: quantity(step.displayLots) } : {}),
        });
        return;
      }
      case 'market':
        await trader.gateway.call('SendOrder', {
          ...base,
          Side: step.side,
          OrderType: 1,
          Quantity: quantity(step.lots),
          TimeInForce: step.tif,
        });
        return;
      case 'oco': {
        const open = (await openOrders(trader)).filter((order) => order.OrderType === 'Limit');
        if (open.length === 0) return;
        await trader.gateway.call('SendOrder', {
          ...base,
          Side: step.side,
          OrderType: 2,
          Quantity: quantity(step.lots),
          LimitPrice: Number(priceAt(step.side, Math.min(step.offsetBp, -10))),
          OrderIdOCO: Number(open[step.pick % open.length].OrderId),
        });
        return;
      }
      case 'stop': {
        const orderType = step.trailing ? (step.limit ? 6 : 5) : step.limit ? 4 : 3;
        const price = Number(priceAt(step.side, step.offsetBp));
        await trader.gateway.call('SendOrder', {
          ...base,
          Side: step.side,
          OrderType: orderType,
          Quantity: quantity(step.lots),
          StopPrice: price,
          LimitPrice: price,
          TrailingAmount: Math.max(1, Math.abs(step.offsetBp) * 5),
          LimitOffset: 5,
        });
        return;
      }
      case 'cancel': {
        const open = await openOrders(trader);
        if (open.length === 0) return;
        const reply = await trader.gateway.call('CancelOrder', {
          OMSId: 1,
          OrderId: Number(open[step.pick % open.length].OrderId),
        });
        expect((reply.payload as Fields).result).toBe(true);
        return;
      }
      case 'flow':
        sandbox.exchange.stepMarket(sandbox.exchange.market('btc_usdt')!, step.count);
        return;
    }
  }

  async function totals(trader: Trader): Promise<Map<string, { total: bigint; locked: bigint }>> {
    const balances = expectOk(await trader.rest.balances());
    return new Map(
      balances.map((balance) => [
        balance.asset,
        { total: units(balance.balance), locked: units(balance.locked) },
      ]),
    );
  }

  async function executions(trader: Trader): Promise<Map<string, Fields>> {
    const rows = (await trader.gateway.call('GetTradesHistory', { OMSId: 1, AccountId: trader.accountId }))
      .payload as Fields[];
    return new Map(rows.map((row) => [String(row.ExecutionId), row]));
  }

  async function check(
    trader: Trader,
    before: Map<string, { total: bigint; locked: bigint }>,
    seen: Map<string, Fields>,
  ) {
    const spec = sandbox.exchange.market('btc_usdt')!.spec;
    const rate = (fee: string) => parseUnits(fee, RATE_SCALE);
    const maxFee = rate(spec.makerFee) > rate(spec.takerFee) ? rate(spec.makerFee) : rate(spec.takerFee);
    const now = await totals(trader);
    let usdtLocked = 0n;
    let btcLocked = 0n;
    for (const order of await openOrders(trader)) {
      if (String(order.OrderType).includes('Stop') && String(order.OrigOrderId) === String(order.OrderId))
        continue;
      const remaining = parseUnits(String(order.Quantity), 8);
      if (order.Side === 'Buy')
        usdtLocked += grossCost(parseUnits(String(order.Price), 2), remaining, maxFee, 2, 8);
      else btcLocked += remaining * 10n ** BigInt(BALANCE_SCALE - 8);
    }
    expect([trader.accountId, 'usdt locked', now.get('usdt')!.locked]).toEqual([
      trader.accountId,
      'usdt locked',
      usdtLocked,
    ]);
    expect([trader.accountId, 'btc locked', now.get('btc')!.locked]).toEqual([
      trader.accountId,
      'btc locked',
      btcLocked,
    ]);

    const after = await executions(trader);
    let usdt = 0n;
    let btc = 0n;
    for (const [id, row] of after) {
      if (seen.has(id)) continue;
      const value = units(row.Value);
      const fee = units(row.Fee);
      const amount = units(row.Quantity);
      if (row.Side === 'Buy') {
        usdt -= value + fee;
        btc += amount;
      } else {
        usdt += value - fee;
        btc -= amount;
      }
      seen.set(id, row);
      newExecutions += 1;
    }
    expect([trader.accountId, 'usdt moved', now.get('usdt')!.total - before.get('usdt')!.total]).toEqual([
      trader.accountId,
      'usdt moved',
      usdt,
    ]);
    expect([trader.accountId, 'btc moved', now.get('btc')!.total - before.get('btc')!.total]).toEqual([
      trader.accountId,
      'btc moved',
      btc,
    ]);
    return now;
  }

  it('keeps locked equal to what open orders reserve, and totals moved only by executions', async () => {
    const state = await Promise.all(
      traders.map(async (trader) => ({ balances: await totals(trader), seen: await executions(trader) })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 10, maxLength: 30 }), async (commands) => {
        for (const step of commands) {
          await run(traders[step.kind === 'flow' ? 0 : step.who], step);
          for (const [index, trader] of traders.entries())
            state[index].balances = await check(trader, state[index].balances, state[index].seen);
        }
      }),
      { numRuns: 10, seed: 20261122 },
    );
    // The runs traded: fills (of user orders against each other and the flow) were checked.
    expect(newExecutions).toBeGreaterThan(20);
    expect(
      state.every(({ balances }) => balances.get('usdt')!.locked > 0n || balances.get('btc')!.locked > 0n),
    ).toBe(true);
  }, 60_000);
});
