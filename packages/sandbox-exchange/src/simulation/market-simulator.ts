import { Execution, Fill, MatchingEngine } from '../engine/matching-engine';
import { LevelChange } from '../engine/level-change';
import { OrderRequest } from '../engine/order';
import { Side } from '../engine/side';
import { MarketStatus, SandboxMarketSpec } from '../market/market-spec';
import { BookDelta } from './book-delta';
import { SandboxTrade, TickDirection } from './sandbox-trade';
import { Signal } from './signal';
import { SYNTHETIC_ACCOUNT_ID, SyntheticTrader } from './synthetic-trader';
import { TradeLog } from './trade-log';

export interface IdSequence {
  next(): number;
}

export interface MarketSimulatorOptions {
  readonly seed: number;
  readonly restingOrders: number;
  readonly tradeRetentionMs: number;
  readonly orderIds: IdSequence;
  readonly tradeIds: IdSequence;
}

/**
 * One sandbox market: its matching engine, book version, trade log and synthetic participants.
 * Every operation that changes the book bumps the version by one and emits exactly one delta.
 */
export class MarketSimulator {
  readonly deltas = new Signal<BookDelta>();
  readonly trades = new Signal<readonly SandboxTrade[]>();
  readonly engine: MatchingEngine;
  readonly tradeLog: TradeLog;
  status: MarketStatus;
  version: number;
  /** Time of the last book change, Unix milliseconds. */
  updatedAt = 0;
  private readonly trader: SyntheticTrader;
  private readonly tradeIds: IdSequence;

  constructor(
    readonly spec: SandboxMarketSpec,
    options: MarketSimulatorOptions,
  ) {
    this.engine = new MatchingEngine(() => options.orderIds.next());
    this.tradeLog = new TradeLog(options.tradeRetentionMs);
    this.trader = new SyntheticTrader(spec, options.seed, { restingOrders: options.restingOrders });
    this.tradeIds = options.tradeIds;
    this.status = spec.status;
    this.version = 100_000 * spec.instrumentId;
  }

  get instrument(): string {
    return this.spec.instrument;
  }

  get isOpen(): boolean {
    return this.status === 'Open';
  }

  /** Fills a fresh book with the participants' resting orders. */
  seed(now: number): void {
    for (const request of this.trader.initialOrders()) this.execute(request, now);
  }

  /** One operation of the synthetic participants. */
  step(now: number): void {
    const operation = this.trader.next(this.engine);
    if (operation.kind === 'cancel') this.cancel(operation.orderId, now);
    else this.execute(operation.request, now);
  }

  execute(request: OrderRequest, now: number): Execution {
    const execution = this.engine.place(request, now);
    if (execution.status === 'working' && request.accountId === SYNTHETIC_ACCOUNT_ID)
      this.trader.rested(execution.order.id);
    this.publish(execution.changes, now);
    if (execution.fills.length > 0) {
      this.trades.emit(execution.fills.map((fill) => this.recordTrade(fill, now)));
    }
    return execution;
  }

  /** Stops the engine's matching (the `stop-matching` fault): crossing limit orders rest, the book can cross. */
  stopMatching(): void {
    this.engine.stopMatching();
  }

  /** Resumes matching: the crossing orders trade, published as one book change and one batch of trades. */
  resumeMatching(now: number): void {
    if (!this.engine.matchingStopped) return;
    const { fills, changes } = this.engine.resumeMatching();
    this.publish(changes, now);
    if (fills.length > 0) this.trades.emit(fills.map((fill) => this.recordTrade(fill, now)));
  }

  cancel(orderId: number, now: number): boolean {
    const cancellation = this.engine.cancel(orderId);
    if (!cancellation) return false;
    this.publish(cancellation.changes, now);
    return true;
  }

  private publish(changes: readonly LevelChange[], now: number): void {
    if (changes.length === 0) return;
    this.version += 1;
    this.updatedAt = now;
    if (this.deltas.hasListeners) {
      this.deltas.emit({
        instrument: this.spec.instrument,
        instrumentId: this.spec.instrumentId,
        version: this.version,
        time: now,
        changes,
      });
    }
  }

  private recordTrade({ maker, taker, price, amount }: Fill, now: number): SandboxTrade {
    const previous = this.tradeLog.last();
    const direction =
      !previous || previous.price === price
        ? TickDirection.NoChange
        : price > previous.price
          ? TickDirection.UpTick
          : TickDirection.DownTick;
    const trade: SandboxTrade = {
      id: this.tradeIds.next(),
      instrument: this.spec.instrument,
      instrumentId: this.spec.instrumentId,
      price,
      amount,
      takerSide: taker.side,
      time: now,
      direction,
      makerOrderId: maker.id,
      takerOrderId: taker.id,
      makerAccountId: maker.accountId,
      takerAccountId: taker.accountId,
    };
    this.tradeLog.append(trade);
    return trade;
  }

  bestPrice(side: Side): bigint | undefined {
    return this.engine.bestPrice(side);
  }
}
