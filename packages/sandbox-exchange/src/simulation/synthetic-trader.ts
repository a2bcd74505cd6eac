import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { MatchingEngine } from '../engine/matching-engine';
import { OrderRequest } from '../engine/order';
import { Side } from '../engine/side';
import { parseUnits, pow10 } from '../engine/units';
import { SandboxMarketSpec } from '../market/market-spec';

export type SyntheticOperation =
  { kind: 'place'; request: OrderRequest } | { kind: 'cancel'; orderId: number };

/** Account the synthetic participants trade from. */
export const SYNTHETIC_ACCOUNT_ID = 1000;

export interface SyntheticTraderOptions {
  /** Resting orders the participants keep in the book, both sides together. */
  readonly restingOrders: number;
}

const MEAN_DISTANCE_STEPS = 400;
const VOLATILITY = 0.0004;

/**
 * The synthetic participants of one market: limit orders around a random-walk mid price, cancels
 * and market orders. The sequence of operations depends only on the seed and the book.
 */
export class SyntheticTrader {
  private readonly random;
  private readonly step: bigint;
  private readonly typicalAmount: bigint;
  private readonly minAmount: bigint;
  private readonly ownOrders: number[] = [];
  private mid: number;

  constructor(
    spec: SandboxMarketSpec,
    seed: number,
    private readonly options: SyntheticTraderOptions,
  ) {
    this.random = xoroshiro128plus((seed * 7919 + spec.instrumentId * 104_729) | 0);
    this.mid = Number(parseUnits(spec.initialPrice, spec.priceScale));
    this.step = pow10(Math.max(0, Math.floor(Math.log10(this.mid * 0.0001))));
    this.typicalAmount = parseUnits(spec.typicalAmount, spec.amountScale);
    this.minAmount = parseUnits(spec.minAmount, spec.amountScale);
  }

  /** Passive orders that give a fresh market its depth. */
  initialOrders(): OrderRequest[] {
    return Array.from({ length: this.options.restingOrders }, (_, i) =>
      this.passive(i % 2 === 0 ? Side.Buy : Side.Sell),
    );
  }

  next(engine: MatchingEngine): SyntheticOperation {
    this.walk(engine);
    const crowded = engine.restingOrderCount > this.options.restingOrders;
    const draw = this.uniform();
    const cancelShare = crowded ? 0.6 : 0.25;
    if (draw < cancelShare) {
      const orderId = this.pickOwnOrder(engine);
      if (orderId !== undefined) return { kind: 'cancel', orderId };
    }
    if (draw > 0.93) return { kind: 'place', request: this.market() };
    const side = this.uniform() < 0.5 ? Side.Buy : Side.Sell;
    const request = this.uniform() < 0.15 ? this.aggressive(side, engine) : this.passive(side);
    return { kind: 'place', request };
  }

  /** Tells the trader an order of its own now rests in the book, so that it may cancel it later. */
  rested(orderId: number): void {
    this.ownOrders.push(orderId);
  }

  private walk(engine: MatchingEngine): void {
    const bid = engine.bestPrice(Side.Buy);
    const ask = engine.bestPrice(Side.Sell);
    const reference = bid !== undefined && ask !== undefined ? Number(bid + ask) / 2 : this.mid;
    this.mid = Math.max(Number(this.step), reference * (1 + VOLATILITY * (this.uniform() * 2 - 1)));
  }

  private passive(side: Side): OrderRequest {
    const distance = 1 + Math.floor(-Math.log(1 - this.uniform()) * MEAN_DISTANCE_STEPS);
    const midSteps = BigInt(Math.round(this.mid / Number(this.step)));
    const steps = side === Side.Buy ? midSteps - BigInt(distance) : midSteps + BigInt(distance);
    return this.limit(side, (steps > 0n ? steps : 1n) * this.step);
  }

  private aggressive(side: Side, engine: MatchingEngine): OrderRequest {
    const opposite = engine.bestPrice(side === Side.Buy ? Side.Sell : Side.Buy);
    if (opposite === undefined) return this.passive(side);
    const through = BigInt(uniformInt(this.random, 0, 2)) * this.step;
    const price = side === Side.Buy ? opposite + through : opposite - through;
    return this.limit(side, price > 0n ? price : this.step);
  }

  private limit(side: Side, price: bigint): OrderRequest {
    return {
      accountId: SYNTHETIC_ACCOUNT_ID,
      side,
      type: 'limit',
      price,
      amount: this.amount(50, 3000),
      timeInForce: 'gtc',
    };
  }

  private market(): OrderRequest {
    const side = this.uniform() < 0.5 ? Side.Buy : Side.Sell;
    return {
      accountId: SYNTHETIC_ACCOUNT_ID,
      side,
      type: 'market',
      amount: this.amount(50, 1000),
      timeInForce: 'ioc',
    };
  }

  /** A size between `lowPermille` and `highPermille` of the typical amount, with noise in every digit. */
  private amount(lowPermille: number, highPermille: number): bigint {
    const scaled = (this.typicalAmount * BigInt(uniformInt(this.random, lowPermille, highPermille))) / 1000n;
    const noiseRange = this.typicalAmount / 1000n;
    const noise =
      noiseRange > 0n ? (noiseRange * BigInt(uniformInt(this.random, 0, 999_999))) / 1_000_000n : 0n;
    const amount = scaled + noise;
    return amount < this.minAmount ? this.minAmount : amount;
  }

  private pickOwnOrder(engine: MatchingEngine): number | undefined {
    while (this.ownOrders.length > 0) {
      const index = uniformInt(this.random, 0, this.ownOrders.length - 1);
      const orderId = this.ownOrders[index];
      this.ownOrders[index] = this.ownOrders[this.ownOrders.length - 1];
      this.ownOrders.pop();
      if (engine.order(orderId)) return orderId;
    }
    return undefined;
  }

  private uniform(): number {
    return uniformFloat64(this.random);
  }
}
