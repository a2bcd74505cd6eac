import { parseUnits } from '../engine/units';
import { Side } from '../engine/side';
import { MarketSimulator } from '../simulation/market-simulator';
import { SandboxTrade, TickDirection } from '../simulation/sandbox-trade';

/** A trade of the fixtures, written as they write it. */
export interface TapeTrade {
  readonly id: number;
  readonly time: string;
  readonly price: string;
  readonly amount: string;
  readonly takerSide: Side;
  readonly direction: TickDirection;
  readonly maker: { readonly orderId: number; readonly accountId: number };
  readonly taker: { readonly orderId: number; readonly accountId: number };
}

/**
 * The trades of `eth_btc` on 2024-05-01 that the fixtures describe: the candles of
 * `rest/candles.json`, the day of `gateway/level1-update.json`, the rows of
 * `gateway/trades-snapshot.json` (1004, 1005) and the executions of account 7 in
 * `gateway/trade-history.json`.
 */
export const FIXTURE_TAPE: readonly TapeTrade[] = [
  {
    id: 1001,
    time: '2024-05-01T09:05:00Z',
    price: '0.0512',
    amount: '1',
    takerSide: Side.Buy,
    direction: TickDirection.NoChange,
    maker: { orderId: 5001, accountId: 11 },
    taker: { orderId: 5002, accountId: 9 },
  },
  {
    id: 1002,
    time: '2024-05-01T09:20:00Z',
    price: '0.0514',
    amount: '0.5',
    takerSide: Side.Buy,
    direction: TickDirection.UpTick,
    maker: { orderId: 5003, accountId: 11 },
    taker: { orderId: 5004, accountId: 9 },
  },
  {
    id: 1003,
    time: '2024-05-01T09:40:00Z',
    price: '0.0511',
    amount: '1.5',
    takerSide: Side.Sell,
    direction: TickDirection.DownTick,
    maker: { orderId: 5005, accountId: 11 },
    taker: { orderId: 5006, accountId: 9 },
  },
  {
    id: 1004,
    time: '2024-05-01T09:55:00Z',
    price: '0.0513',
    amount: '0.5',
    takerSide: Side.Buy,
    direction: TickDirection.UpTick,
    maker: { orderId: 5007, accountId: 7 },
    taker: { orderId: 5008, accountId: 9 },
  },
  {
    id: 1005,
    time: '2024-05-01T10:30:00Z',
    price: '0.0515',
    amount: '0.25',
    takerSide: Side.Buy,
    direction: TickDirection.UpTick,
    maker: { orderId: 5009, accountId: 9 },
    taker: { orderId: 5010, accountId: 7 },
  },
];

export function sandboxTrade(market: MarketSimulator, trade: TapeTrade): SandboxTrade {
  const { instrument, instrumentId, priceScale, amountScale } = market.spec;
  return {
    id: trade.id,
    instrument,
    instrumentId,
    price: parseUnits(trade.price, priceScale),
    amount: parseUnits(trade.amount, amountScale),
    takerSide: trade.takerSide,
    time: Date.parse(trade.time),
    direction: trade.direction,
    makerOrderId: trade.maker.orderId,
    takerOrderId: trade.taker.orderId,
    makerAccountId: trade.maker.accountId,
    takerAccountId: trade.taker.accountId,
  };
}

/** Writes the fixtures' trades into the market's trade log. */
export function recordFixtureTape(market: MarketSimulator): void {
  for (const trade of FIXTURE_TAPE) market.tradeLog.append(sandboxTrade(market, trade));
}
