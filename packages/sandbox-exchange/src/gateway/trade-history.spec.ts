import { Side } from '../engine/side';
import { toJson } from '../http/json-number';
import { SandboxUsers } from '../users/sandbox-users';
import { parseUsers } from '../users/users-file';
import { parseExactJson } from '../wire/exact-json';
import { Payload } from './frame-codec';
import { GatewayCallError, GatewayErrorCode } from './gateway-result';
import { emptyMarket } from './testing/market-fixture';
import { executionId, selectTradeHistory } from './trade-history';
import { parseTradeHistoryQuery, timestampMs } from './trade-history-query';

const T0 = Date.UTC(2025, 0, 2, 10);
const SYNTHETIC = 1000;

const users = new SandboxUsers(
  parseUsers([
    { userId: 1, email: 'ops@example.com', password: 'x', accounts: [1], operator: true },
    { userId: 2, email: 'two@example.com', password: 'x', accounts: [2, 22] },
    { userId: 3, email: 'three@example.com', password: 'x', accounts: [3] },
  ]),
);
const operator = users.withUserId(1)!;
const two = users.withUserId(2)!;

/**
 * btc_usdt (trade ids from 101): account 2 sells 1 @ 100 at T0+1s; account 3 takes 0.4 at T0+2s
 * (trade 101), account 22 takes 0.6 at T0+3s (trade 102); the synthetic account sells 0.5 @ 101 at
 * T0+4s and account 3 takes 0.2 at T0+5s (trade 103).
 * eth_btc (trade ids from 201): account 2 sells 3 @ 0.05 at T0+2.5s, the synthetic account takes
 * it (trade 201).
 */
function scenario() {
  const btc = emptyMarket(0, { order: 1, trade: 101 });
  const eth = emptyMarket(1, { order: 51, trade: 201 });
  const orders = {
    a: btc.limit(2, Side.Sell, 10_000n, 100_000_000n, T0 + 1_000),
    b: btc.limit(3, Side.Buy, 10_000n, 40_000_000n, T0 + 2_000),
    c: btc.limit(22, Side.Buy, 10_000n, 60_000_000n, T0 + 3_000),
    d: btc.limit(SYNTHETIC, Side.Sell, 10_100n, 50_000_000n, T0 + 4_000),
    e: btc.limit(3, Side.Buy, 10_100n, 20_000_000n, T0 + 5_000),
    f: eth.limit(2, Side.Sell, 5_000_000n, 3_000_000n, T0 + 2_400),
    g: eth.limit(SYNTHETIC, Side.Buy, 5_000_000n, 3_000_000n, T0 + 2_500),
  };
  const sources = {
    markets: [btc.market, eth.market],
    originatorOf: (accountId: number) => users.ownerOfAccount(accountId)?.userId ?? 0,
    productIdOf: (asset: string) => ({ btc: 1, usdt: 2, eth: 3 })[asset] ?? 0,
  };
  return { orders, sources };
}

function history(payload: Payload, caller = operator, now = T0 + 60_000): Record<string, unknown>[] {
  const { sources } = scenario();
  const query = parseTradeHistoryQuery(payload, caller, users, now);
  return parseExactJson(toJson(selectTradeHistory(sources, query))) as Record<string, unknown>[];
}

/** `tradeId:M` or `tradeId:T` for each execution, in the order returned. */
function executions(payload: Payload, caller = operator): string[] {
  return history(payload, caller).map(
    (record) => `${record.TradeId}:${record.MakerTaker === 'Taker' ? 'T' : 'M'}`,
  );
}

function failure(payload: Payload, caller = two): GatewayErrorCode {
  try {
    history(payload, caller);
  } catch (error) {
    if (error instanceof GatewayCallError) return error.code;
    throw error;
  }
  throw new Error('expected the query to fail');
}

describe('GetTradesHistory', () => {
  it('gives the operator every account, most recent first, both executions of each trade', () => {
    expect(executions({ OMSId: 1 })).toEqual([
      '103:T',
      '103:M',
      '102:T',
      '102:M',
      '201:T',
      '201:M',
      '101:T',
      '101:M',
    ]);
  });

  it("gives a normal user their default account's executions by default", () => {
    expect(executions({ OMSId: 1 }, two)).toEqual(['102:M', '201:M', '101:M']);
  });

  it("selects a user's accounts by UserId, and one account by AccountId", () => {
    expect(executions({ UserId: 2 }, two)).toEqual(['102:T', '102:M', '201:M', '101:M']);
    expect(executions({ AccountId: 22 }, two)).toEqual(['102:T']);
    expect(executions({ AccountId: 22, UserId: 2 }, two)).toEqual(['102:T']);
    expect(executions({ AccountId: 3, UserId: 2 })).toEqual([]);
    expect(executions({ AccountId: SYNTHETIC })).toEqual(['103:M', '201:T']);
    expect(executions({ UserId: 3 })).toEqual(['103:T', '101:T']);
  });

  it("refuses a normal user other users' accounts", () => {
    expect(failure({ AccountId: 3 })).toBe(GatewayErrorCode.NotAuthorized);
    expect(failure({ AccountId: SYNTHETIC })).toBe(GatewayErrorCode.NotAuthorized);
    expect(failure({ UserId: 3 })).toBe(GatewayErrorCode.NotAuthorized);
    expect(failure({ UserId: 9 }, operator)).toBe(GatewayErrorCode.ResourceNotFound);
    expect(failure({ Depth: -1 })).toBe(GatewayErrorCode.InvalidRequest);
    expect(failure({ StartTimeStamp: 'yesterday' })).toBe(GatewayErrorCode.InvalidRequest);
  });

  it('filters by instrument, trade, order and execution', () => {
    const { orders } = scenario();
    expect(executions({ InstrumentId: 2 })).toEqual(['201:T', '201:M']);
    expect(executions({ TradeId: 102 })).toEqual(['102:T', '102:M']);
    expect(executions({ OrderId: orders.a })).toEqual(['102:M', '101:M']);
    expect(executions({ OrderId: orders.a, TradeId: 101 })).toEqual(['101:M']);
    expect(executions({ ExecutionId: executionId(103, true) })).toEqual(['103:T']);
    expect(executions({ InstrumentId: 1, AccountId: 3 })).toEqual(['103:T', '101:T']);
  });

  it('bounds by time, inclusive, in milliseconds or POSIX seconds', () => {
    expect(executions({ StartTimeStamp: T0 + 3_000, EndTimeStamp: T0 + 4_999 })).toEqual(['102:T', '102:M']);
    expect(executions({ StartTimeStamp: T0 + 2_500, EndTimeStamp: T0 + 3_000 })).toEqual([
      '102:T',
      '102:M',
      '201:T',
      '201:M',
    ]);
    expect(executions({ StartTimeStamp: (T0 + 3_000) / 1000, EndTimeStamp: (T0 + 5_000) / 1000 })).toEqual([
      '103:T',
      '103:M',
      '102:T',
      '102:M',
    ]);
    expect(executions({ EndTimeStamp: (T0 + 2_000) / 1000 })).toEqual(['201:T', '201:M', '101:T', '101:M']);
    expect(history({}, operator, T0 + 2_600)).toHaveLength(4);
    expect(timestampMs(1_700_000_000, 'start')).toBe(1_700_000_000_000);
    expect(timestampMs(1_700_000_000, 'end')).toBe(1_700_000_000_999);
    expect(timestampMs(1_700_000_000_123, 'end')).toBe(1_700_000_000_123);
  });

  it('pages back from StartIndex 0, the most recent, Depth at a time', () => {
    const all = executions({});
    const pages = [0, 3, 6].map((StartIndex) => executions({ StartIndex, Depth: 3 }));
    expect(pages.flat()).toEqual(all);
    expect(pages[2]).toHaveLength(2);
    expect(executions({ StartIndex: 8 })).toEqual([]);
    expect(executions({ StartIndex: 7 })).toEqual(['101:M']);
    expect(executions({ Depth: 0 })).toEqual([]);
  });

  it('writes each execution with its order progress, fee and both trade times', () => {
    const { orders } = scenario();
    const [taker, maker] = history({ TradeId: 101 });
    expect(maker).toEqual({
      OMSId: '1',
      ExecutionId: String(executionId(101, false)),
      TradeId: '101',
      OrderId: String(orders.a),
      AccountId: '2',
      SubAccountId: '0',
      ClientOrderId: '0',
      InstrumentId: '1',
      Side: 'Sell',
      Quantity: '0.4',
      RemainingQuantity: '0.6',
      Price: '100',
      Value: '40',
      CounterParty: '3',
      OrderTradeRevision: '1',
      Direction: 'NoChange',
      IsBlockTrade: false,
      Fee: '0.04',
      FeeProductId: '2',
      OrderOriginator: '2',
      TradeTime: String(BigInt(T0 + 2_000) * 10_000n + 621_355_968_000_000_000n),
      TradeTimeMS: String(T0 + 2_000),
      MakerTaker: 'Maker',
    });
    expect(taker).toMatchObject({
      ExecutionId: String(executionId(101, true)),
      OrderId: String(orders.b),
      AccountId: '3',
      Side: 'Buy',
      RemainingQuantity: '0',
      CounterParty: '2',
      Fee: '0.08',
      OrderOriginator: '3',
      MakerTaker: 'Taker',
    });
    const [, second] = history({ TradeId: 102 });
    expect(second).toMatchObject({
      OrderId: String(orders.a),
      RemainingQuantity: '0',
      OrderTradeRevision: '2',
    });
    const [, resting] = history({ TradeId: 103 });
    expect(resting).toMatchObject({
      AccountId: String(SYNTHETIC),
      OrderOriginator: '0',
      RemainingQuantity: '0.3',
      Direction: 'UpTick',
    });
  });
});
