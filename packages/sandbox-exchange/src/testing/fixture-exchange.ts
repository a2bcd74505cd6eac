import { parseUnits } from '../engine/units';
import { OrderRequest } from '../engine/order';
import { Side } from '../engine/side';
import { MarketSideMode, MarketStatus, SandboxMarketSpec } from '../market/market-spec';
import { Clock } from '../simulation/clock';
import { MarketSimulator } from '../simulation/market-simulator';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { FrameMeaning, readSpecFixture, unixMs } from './spec-fixtures';

/** A pair of `rest/market-info.json`. */
export interface PairMeaning {
  readonly baseAsset: string;
  readonly quoteAsset: string;
  readonly minAmount: string;
  readonly priceDeviation: string;
  readonly hidden: string;
  readonly makerFee: string;
  readonly takerFee: string;
  readonly priceScale: string;
  readonly amountScale: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly status: string;
  readonly side: string;
  readonly isCustom: boolean;
}

export interface InfoMeaning {
  readonly serverTime: string;
  readonly pairs: Readonly<Record<string, PairMeaning>>;
}

interface InstrumentMeaning {
  readonly InstrumentId: string;
  readonly Symbol: string;
}

/** A price level to build: its total amount and how many orders make it. */
export interface LevelToPlace {
  readonly price: string;
  readonly amount: string;
  readonly orders: number;
}

const TRADER_ACCOUNT = 11;

function marketSpec(instrument: string, pair: PairMeaning, instrumentId: number): SandboxMarketSpec {
  return {
    instrument,
    baseAsset: pair.baseAsset,
    quoteAsset: pair.quoteAsset,
    instrumentId,
    priceScale: Number(pair.priceScale),
    amountScale: Number(pair.amountScale),
    minAmount: pair.minAmount,
    priceDeviation: pair.priceDeviation,
    hidden: pair.hidden === '1' ? 1 : 0,
    makerFee: pair.makerFee,
    takerFee: pair.takerFee,
    status: pair.status as MarketStatus,
    side: pair.side as MarketSideMode,
    isCustom: pair.isCustom,
    // The sandbox writes the configured text; the specification's date format has no zone.
    createdAt: pair.createdAt.replace(/Z$/, ''),
    updatedAt: pair.updatedAt.replace(/Z$/, ''),
    initialPrice: '1',
    typicalAmount: '1',
  };
}

/** A clock that stands still until a test moves it. */
export class FixtureClock implements Clock {
  constructor(private time: number) {}

  now(): number {
    return this.time;
  }

  /** Moves the clock to an instant the fixtures write in ISO 8601. */
  set(iso: string): void {
    this.time = unixMs(iso);
  }
}

/**
 * The markets of the fixtures, as `rest/market-info.json` describes them with the ids of
 * `gateway/instruments.json`, on a clock standing at the fixture's server time, without synthetic
 * participants: the books and trades are what a test puts there.
 */
export function fixtureExchange(): { exchange: SandboxExchange; clock: FixtureClock } {
  const info = readSpecFixture<InfoMeaning>('rest/market-info.json').means;
  const instruments = readSpecFixture<FrameMeaning<InstrumentMeaning[]>>('gateway/instruments.json').means.o;
  const markets = Object.entries(info.pairs).map(([instrument, pair]) => {
    const symbol = `${pair.baseAsset}${pair.quoteAsset}`.toUpperCase();
    const listed = instruments.find((candidate) => candidate.Symbol === symbol);
    if (!listed) throw new Error(`gateway/instruments.json lists no ${symbol}`);
    return marketSpec(instrument, pair, Number(listed.InstrumentId));
  });
  const clock = new FixtureClock(unixMs(info.serverTime));
  const exchange = new SandboxExchange({
    markets,
    seed: 1,
    flowRate: 0,
    historyHours: 0,
    restingOrders: 0,
    clock,
  });
  return { exchange, clock };
}

/** The fixtures' market `eth_btc`. */
export function fixtureMarket(exchange: SandboxExchange): MarketSimulator {
  const market = exchange.market('eth_btc');
  if (!market) throw new Error('the fixtures describe eth_btc');
  return market;
}

/**
 * Rests the levels on one side of the book; a level of several orders gets orders of the smallest
 * amount and one with the rest.
 */
export function placeLevels(
  market: MarketSimulator,
  side: Side,
  levels: readonly LevelToPlace[],
  now: number,
): void {
  const { priceScale, amountScale } = market.spec;
  for (const level of levels) {
    const price = parseUnits(level.price, priceScale);
    const total = parseUnits(level.amount, amountScale);
    for (let order = 1; order <= level.orders; order++) {
      const amount = order < level.orders ? 1n : total - BigInt(level.orders - 1);
      const request: OrderRequest = {
        accountId: TRADER_ACCOUNT,
        side,
        type: 'limit',
        price,
        amount,
        timeInForce: 'gtc',
      };
      const execution = market.execute(request, now);
      if (execution.fills.length > 0) throw new Error(`the level at ${level.price} crossed the book`);
    }
  }
}
