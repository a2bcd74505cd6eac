import { oppositeSide, Side } from '../engine/side';
import { parseUnits } from '../engine/units';
import { jsonNumber, JsonNumber } from '../http/json-number';
import { dotNetTicks } from '../wire/dotnet-ticks';
import { MarketSimulator } from '../simulation/market-simulator';
import { SandboxTrade, TickDirection } from '../simulation/sandbox-trade';
import { OMS_ID } from './gateway-catalog';
import { TradeHistoryQuery } from './trade-history-query';

/** GetTradesHistory element (spec 2.10 "Trade history record"). */
export interface TradeHistoryRecord {
  readonly OMSId: number;
  readonly ExecutionId: number;
  readonly TradeId: number;
  readonly OrderId: number;
  readonly AccountId: number;
  readonly SubAccountId: number;
  readonly ClientOrderId: number;
  readonly InstrumentId: number;
  readonly Side: 'Buy' | 'Sell';
  readonly Quantity: JsonNumber;
  readonly RemainingQuantity: JsonNumber;
  readonly Price: JsonNumber;
  readonly Value: JsonNumber;
  readonly CounterParty: number;
  readonly OrderTradeRevision: number;
  readonly Direction: 'NoChange' | 'UpTick' | 'DownTick';
  readonly IsBlockTrade: boolean;
  readonly Fee: JsonNumber;
  readonly FeeProductId: number;
  readonly OrderOriginator: number;
  /** .NET ticks (100 ns since 0001-01-01), as the gateway's TradeTime. */
  readonly TradeTime: JsonNumber;
  /** POSIX milliseconds. */
  readonly TradeTimeMS: number;
  readonly MakerTaker: 'Maker' | 'Taker';
}

export interface TradeHistorySources {
  readonly markets: readonly MarketSimulator[];
  /** User id that owns an account, 0 for accounts of no user. */
  originatorOf(accountId: number): number;
  productIdOf(asset: string): number;
}

/** One side of a trade: every trade has a maker execution and a taker execution. */
interface Execution {
  readonly market: MarketSimulator;
  readonly trade: SandboxTrade;
  readonly taker: boolean;
}

const DIRECTIONS = {
  [TickDirection.NoChange]: 'NoChange',
  [TickDirection.UpTick]: 'UpTick',
  [TickDirection.DownTick]: 'DownTick',
} as const;

const FEE_SCALE = 18;

/** Execution ids: two per trade, the maker's even and the taker's odd. */
export function executionId(tradeId: number, taker: boolean): number {
  return tradeId * 2 + (taker ? 1 : 0);
}

function ticksNumber(unixMs: number): JsonNumber {
  return new JsonNumber(dotNetTicks(unixMs).toString());
}

/**
 * The executions a query selects, most recent first (by time, then trade and execution id), paged by
 * StartIndex and Depth. Only the page's records are built.
 */
export function selectTradeHistory(
  sources: TradeHistorySources,
  query: TradeHistoryQuery,
): TradeHistoryRecord[] {
  const markets =
    query.instrumentId === undefined
      ? sources.markets
      : sources.markets.filter((market) => market.spec.instrumentId === query.instrumentId);
  const selected: Execution[] = [];
  for (const market of markets) {
    for (const trade of market.tradeLog.between(query.from - 1, query.to)) {
      if (query.tradeId !== undefined && trade.id !== query.tradeId) continue;
      for (const taker of [false, true]) {
        if (matches(trade, taker, query)) selected.push({ market, trade, taker });
      }
    }
  }
  selected.sort(
    (a, b) =>
      b.trade.time - a.trade.time ||
      b.trade.id - a.trade.id ||
      executionId(b.trade.id, b.taker) - executionId(a.trade.id, a.taker),
  );
  const end = query.depth === undefined ? undefined : query.startIndex + query.depth;
  const page = selected.slice(query.startIndex, end);
  const progress = new Map<MarketSimulator, OrderProgress>();
  return page.map((execution) => {
    let marketProgress = progress.get(execution.market);
    if (!marketProgress) {
      marketProgress = new OrderProgress(execution.market);
      progress.set(execution.market, marketProgress);
    }
    return record(execution, sources, marketProgress);
  });
}

function matches(trade: SandboxTrade, taker: boolean, query: TradeHistoryQuery): boolean {
  const accountId = taker ? trade.takerAccountId : trade.makerAccountId;
  const orderId = taker ? trade.takerOrderId : trade.makerOrderId;
  if (query.accounts && !query.accounts.has(accountId)) return false;
  if (query.orderId !== undefined && orderId !== query.orderId) return false;
  return query.executionId === undefined || executionId(trade.id, taker) === query.executionId;
}

function record(
  { market, trade, taker }: Execution,
  sources: TradeHistorySources,
  progress: OrderProgress,
): TradeHistoryRecord {
  const { spec } = market;
  const accountId = taker ? trade.takerAccountId : trade.makerAccountId;
  const side = taker ? trade.takerSide : oppositeSide(trade.takerSide);
  const valueScale = spec.priceScale + spec.amountScale;
  const value = trade.price * trade.amount;
  const feeRate = parseUnits(taker ? spec.takerFee : spec.makerFee, FEE_SCALE);
  const after = progress.after(trade.id, taker);
  return {
    OMSId: OMS_ID,
    ExecutionId: executionId(trade.id, taker),
    TradeId: trade.id,
    OrderId: taker ? trade.takerOrderId : trade.makerOrderId,
    AccountId: accountId,
    SubAccountId: 0,
    ClientOrderId: 0,
    InstrumentId: spec.instrumentId,
    Side: side === Side.Buy ? 'Buy' : 'Sell',
    Quantity: jsonNumber(trade.amount, spec.amountScale),
    RemainingQuantity: jsonNumber(after.remaining, spec.amountScale),
    Price: jsonNumber(trade.price, spec.priceScale),
    Value: jsonNumber(value, valueScale),
    CounterParty: taker ? trade.makerAccountId : trade.takerAccountId,
    OrderTradeRevision: after.revision,
    Direction: DIRECTIONS[trade.direction],
    IsBlockTrade: false,
    Fee: jsonNumber(value * feeRate, valueScale + FEE_SCALE),
    FeeProductId: sources.productIdOf(spec.quoteAsset),
    OrderOriginator: sources.originatorOf(accountId),
    TradeTime: ticksNumber(trade.time),
    TradeTimeMS: trade.time,
    MakerTaker: taker ? 'Taker' : 'Maker',
  };
}

interface ExecutionProgress {
  /** The order's unfilled amount right after this execution. */
  readonly remaining: bigint;
  /** 1 for the order's first execution, 2 for its second... */
  readonly revision: number;
}

/**
 * How far each order of a market had been filled at each of its executions, worked out from the
 * retained tape: the revision counts the order's executions up to this one, and the remaining
 * amount is what the order still rests with now plus what it filled later. An order that left the
 * book by cancellation counts as having had nothing left after its last execution.
 */
class OrderProgress {
  private readonly byExecution = new Map<number, ExecutionProgress>();

  constructor(market: MarketSimulator) {
    const tape = market.tradeLog.between(-Infinity, Infinity);
    const revisions = new Map<number, number>();
    const revisionOf: number[] = [];
    tape.forEach((trade, index) => {
      for (const orderId of [trade.makerOrderId, trade.takerOrderId]) {
        const revision = (revisions.get(orderId) ?? 0) + 1;
        revisions.set(orderId, revision);
        revisionOf[index * 2 + (orderId === trade.takerOrderId ? 1 : 0)] = revision;
      }
    });
    const remaining = new Map<number, bigint>();
    for (let index = tape.length - 1; index >= 0; index--) {
      const trade = tape[index];
      for (const taker of [false, true]) {
        const orderId = taker ? trade.takerOrderId : trade.makerOrderId;
        const after = remaining.get(orderId) ?? market.engine.order(orderId)?.remaining ?? 0n;
        this.byExecution.set(executionId(trade.id, taker), {
          remaining: after,
          revision: revisionOf[index * 2 + (taker ? 1 : 0)],
        });
        remaining.set(orderId, after + trade.amount);
      }
    }
  }

  after(tradeId: number, taker: boolean): ExecutionProgress {
    return this.byExecution.get(executionId(tradeId, taker)) ?? { remaining: 0n, revision: 1 };
  }
}
