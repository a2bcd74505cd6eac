import { LevelAction, LevelChange } from '../engine/level-change';
import { Side } from '../engine/side';
import { jsonNumber, JsonNumber } from '../http/json-number';
import { SandboxMarketSpec } from '../market/market-spec';
import { BookDelta } from '../simulation/book-delta';
import { MarketSimulator } from '../simulation/market-simulator';

/**
 * One level as the gateway sends it: `[MDUpdateId, NumAccounts, ActionDateTime, ActionType,
 * LastTradePrice, NumOrders, Price, InstrumentId, Quantity, Side]`.
 */
export type Level2Row = [
  mdUpdateId: number,
  numAccounts: number,
  actionDateTime: number,
  actionType: LevelAction,
  lastTradePrice: JsonNumber,
  numOrders: number,
  price: JsonNumber,
  instrumentId: number,
  quantity: JsonNumber,
  side: Side,
];

/** Every third Update (counted along the rows of each delta from its version) goes out as Delete + New. */
const SPLIT_EVERY = 3;

/**
 * NumAccounts of a level. The book does not keep accounts per level and the synthetic participants
 * trade from one account, so a level with orders counts one account.
 */
function accountsAt(orders: number): number {
  return orders > 0 ? 1 : 0;
}

function lastTradePrice(market: MarketSimulator): JsonNumber {
  return jsonNumber(market.tradeLog.last()?.price ?? 0n, market.spec.priceScale);
}

/**
 * The book as SubscribeLevel2 and GetL2Snapshot reply with it: bids best first, then asks best
 * first (ascending), at most `depth` levels per side, every row with the book version as
 * MDUpdateId, ActionType New and the time of the book's last change.
 */
export function snapshotRows(market: MarketSimulator, depth: number): Level2Row[] {
  const rows: Level2Row[] = [];
  const { spec } = market;
  const last = lastTradePrice(market);
  for (const side of [Side.Buy, Side.Sell]) {
    let count = 0;
    for (const level of market.engine.levels(side)) {
      if (count++ >= depth) break;
      rows.push([
        market.version,
        accountsAt(level.orders),
        market.updatedAt,
        LevelAction.New,
        last,
        level.orders,
        jsonNumber(level.price, spec.priceScale),
        spec.instrumentId,
        jsonNumber(level.amount, spec.amountScale),
        side,
      ]);
    }
  }
  return rows;
}

/**
 * The rows of one Level2UpdateEvent: the delta's changes in their order, each with the delta's
 * version and time; deleted levels carry quantity 0. Like the real gateway, some updates are sent
 * as a delete row followed by a new row at the same price (which one is fixed by the version, so
 * every subscriber and every replay gets the same rows). Rows are not limited to a subscriber's
 * Depth: a level entering the window must be known to whoever keeps the book.
 */
export function deltaRows(
  delta: BookDelta,
  spec: SandboxMarketSpec,
  lastTrade: bigint | undefined,
): Level2Row[] {
  const last = jsonNumber(lastTrade ?? 0n, spec.priceScale);
  const row = (change: LevelChange, action: LevelAction, amount: bigint, orders: number): Level2Row => [
    delta.version,
    accountsAt(orders),
    delta.time,
    action,
    last,
    orders,
    jsonNumber(change.price, spec.priceScale),
    delta.instrumentId,
    jsonNumber(amount, spec.amountScale),
    change.side,
  ];
  const rows: Level2Row[] = [];
  delta.changes.forEach((change, index) => {
    if (change.action === LevelAction.Delete) {
      rows.push(row(change, LevelAction.Delete, 0n, 0));
    } else if (change.action === LevelAction.Update && (delta.version + index) % SPLIT_EVERY === 0) {
      rows.push(row(change, LevelAction.Delete, 0n, 0));
      rows.push(row(change, LevelAction.New, change.amount, change.orders));
    } else {
      rows.push(row(change, change.action, change.amount, change.orders));
    }
  });
  return rows;
}
