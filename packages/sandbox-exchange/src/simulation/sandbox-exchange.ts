import { DeltaFaultFilter } from '../faults/delta-fault-filter';
import { FaultSwitchboard } from '../faults/fault-switchboard';
import { MarketStatus, SandboxMarketSpec } from '../market/market-spec';
import { BookDelta } from './book-delta';
import { Clock, systemClock } from './clock';
import { IdSequence, MarketSimulator } from './market-simulator';
import { SandboxTrade } from './sandbox-trade';
import { Signal } from './signal';

export interface SandboxExchangeOptions {
  readonly markets: readonly SandboxMarketSpec[];
  readonly seed: number;
  /** Synthetic orders per second per open market. */
  readonly flowRate: number;
  /** Hours of history generated before the start; the markets keep their trades that long (and more). */
  readonly historyHours: number;
  /**
   * Synthetic orders per second per open market during the history. Unset: a sparse history (360 an
   * hour) within a budget for all markets together, which keeps a start with many markets quick; the
   * last 24 hours take their share of it first.
   */
  readonly historyRate?: number;
  /** Resting orders the synthetic participants keep per market. */
  readonly restingOrders?: number;
  readonly clock?: Clock;
}

const FLOW_TICK_MS = 20;
const HISTORY_OPERATIONS_PER_HOUR = 360;
const HISTORY_OPERATIONS_BUDGET = 400_000;
const HOUR_MS = 3_600_000;
const WINDOW_HOURS = 24;
/** Trades are kept this long beyond the history (and beyond the 24-hour window) for late readers. */
const TRADE_RETENTION_MARGIN_MS = 2 * HOUR_MS;

/** Operations of one stretch of the history, spread evenly over `from < time < to`. */
interface HistoryStretch {
  readonly from: number;
  readonly to: number;
  readonly operations: number;
}

class Counter implements IdSequence {
  constructor(private value: number) {}
  next(): number {
    return ++this.value;
  }
}

/**
 * The simulated exchange: its markets, the synthetic order flow that drives them, and the fault
 * switches. Public feeds subscribe to `deltas` and `trades`, which carry what the markets emit after
 * the delta faults; `/sandbox/truth` reads the markets themselves.
 */
export class SandboxExchange {
  readonly deltas = new Signal<BookDelta>();
  readonly trades = new Signal<readonly SandboxTrade[]>();
  readonly statusChanges = new Signal<MarketSimulator>();
  readonly faults: FaultSwitchboard;
  readonly clock: Clock;
  private readonly markets: MarketSimulator[];
  private readonly byInstrument = new Map<string, MarketSimulator>();
  private readonly byInstrumentId = new Map<number, MarketSimulator>();
  private readonly flowBudget = new Map<MarketSimulator, number>();
  private flowRatePerMarket: number;
  private burstPerSecond = 0;
  private timer?: NodeJS.Timeout;
  private lastTick = 0;
  private readonly orderIds = new Counter(1_000_000);

  constructor(private readonly options: SandboxExchangeOptions) {
    this.clock = options.clock ?? systemClock;
    this.flowRatePerMarket = options.flowRate;
    const orderIds = this.orderIds;
    const tradeIds = new Counter(5_000_000);
    this.markets = options.markets.map(
      (spec) =>
        new MarketSimulator(spec, {
          seed: options.seed,
          restingOrders: options.restingOrders ?? 2400,
          tradeRetentionMs:
            Math.max(WINDOW_HOURS, options.historyHours) * HOUR_MS + TRADE_RETENTION_MARGIN_MS,
          orderIds,
          tradeIds,
        }),
    );
    this.faults = new FaultSwitchboard((instrument) => this.byInstrument.has(instrument));
    const filter = new DeltaFaultFilter(this.faults, (delta) => this.deltas.emit(delta));
    for (const market of this.markets) {
      this.byInstrument.set(market.instrument, market);
      this.byInstrumentId.set(market.spec.instrumentId, market);
      market.deltas.subscribe((delta) => filter.accept(delta));
      market.trades.subscribe((trades) => this.trades.emit(trades));
    }
    this.faults.changes.subscribe(({ name, enabled, params }) => {
      if (name === 'halt-market' || name === 'pause-market') {
        const market = this.byInstrument.get(String(params.instrument ?? ''));
        if (enabled && market) this.setStatus(market, name === 'halt-market' ? 'Halted' : 'Paused');
        if (!enabled) this.restoreStatuses(name === 'halt-market' ? 'Halted' : 'Paused');
      }
      if (name === 'stop-matching') {
        const market = this.byInstrument.get(String(params.instrument ?? ''));
        if (enabled) market?.stopMatching();
        else for (const each of this.markets) each.resumeMatching(this.clock.now());
      }
      if (name === 'burst') this.burstPerSecond = enabled ? Number(params.updatesPerSecond) : 0;
    });
  }

  /** Seeds every book and plays the history hours, so that a fresh sandbox looks like a running market. */
  prepare(): void {
    const now = this.clock.now();
    const start = now - this.options.historyHours * HOUR_MS;
    const stretches = this.historyStretches(now);
    for (const market of this.markets) {
      market.seed(start);
      if (market.status !== 'Open') continue;
      for (const { from, to, operations } of stretches)
        for (let i = 0; i < operations; i++)
          market.step(from + Math.floor(((i + 1) * (to - from)) / (operations + 1)));
    }
  }

  /** Starts the synthetic order flow. */
  start(): void {
    if (this.timer) return;
    this.lastTick = performance.now();
    this.timer = setInterval(() => this.tick(), FLOW_TICK_MS);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  get flowRate(): number {
    return this.flowRatePerMarket;
  }

  setFlowRate(ratePerSecond: number): void {
    this.flowRatePerMarket = ratePerSecond;
  }

  all(): readonly MarketSimulator[] {
    return this.markets;
  }

  market(instrument: string): MarketSimulator | undefined {
    return this.byInstrument.get(instrument);
  }

  marketById(instrumentId: number): MarketSimulator | undefined {
    return this.byInstrumentId.get(instrumentId);
  }

  /** An order id from the sequence the engines draw from, for an order that never reaches a book (a rejected one). */
  newOrderId(): number {
    return this.orderIds.next();
  }

  /** Runs `count` synthetic operations on one market at once (tests drive quiet markets with this). */
  stepMarket(market: MarketSimulator, count: number): void {
    const now = this.clock.now();
    for (let i = 0; i < count; i++) market.step(now);
  }

  private tick(): void {
    const now = this.clock.now();
    // Elapsed time from the monotonic clock: the wall clock stands still while it has stepped back.
    const elapsed = performance.now();
    const seconds = Math.min(1, (elapsed - this.lastTick) / 1000);
    this.lastTick = elapsed;
    const open = this.markets.filter((market) => market.isOpen);
    if (open.length === 0) return;
    const rate = this.flowRatePerMarket + this.burstPerSecond / open.length;
    for (const market of open) {
      const budget = (this.flowBudget.get(market) ?? 0) + rate * seconds;
      const operations = Math.floor(budget);
      this.flowBudget.set(market, budget - operations);
      for (let i = 0; i < operations; i++) market.step(now);
    }
  }

  /**
   * The history older than 24 hours, then the last 24 hours. At the history rate both are as dense;
   * sparse, the last 24 hours take their operations from the budget first, the older hours the rest.
   */
  private historyStretches(now: number): HistoryStretch[] {
    const { historyHours, historyRate } = this.options;
    const recentHours = Math.min(historyHours, WINDOW_HOURS);
    const olderHours = historyHours - recentHours;
    const windowStart = now - recentHours * HOUR_MS;
    const start = now - historyHours * HOUR_MS;
    let older: number;
    let recent: number;
    if (historyRate !== undefined) {
      older = Math.round(olderHours * 3_600 * historyRate);
      recent = Math.round(recentHours * 3_600 * historyRate);
    } else {
      const budget = Math.floor(HISTORY_OPERATIONS_BUDGET / Math.max(1, this.markets.length));
      recent = Math.min(Math.round(recentHours * HISTORY_OPERATIONS_PER_HOUR), budget);
      older = Math.min(Math.round(olderHours * HISTORY_OPERATIONS_PER_HOUR), budget - recent);
    }
    return [
      { from: start, to: windowStart, operations: older },
      { from: windowStart, to: now, operations: recent },
    ];
  }

  private setStatus(market: MarketSimulator, status: MarketStatus): void {
    if (market.status === status) return;
    market.status = status;
    this.statusChanges.emit(market);
  }

  /** Puts markets that a fault froze back to the status of their specification. */
  private restoreStatuses(frozen: MarketStatus): void {
    for (const market of this.markets) {
      if (market.status === frozen && market.spec.status !== frozen)
        this.setStatus(market, market.spec.status);
    }
  }
}
