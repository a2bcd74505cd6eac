import { TakerSide, Trade } from '../../market/trade';
import { FieldError, JsonFields } from '../json-fields';
import { ExactJson, isJsonObject } from '../exact-json';
import { InstrumentNames } from './instrument-ref';
import {
  numberOf,
  pascalCaseFields,
  PayloadProblems,
  positionalRow,
  readInteger,
  readIntegerText,
  readPositiveDecimal,
  readTimestampMs,
} from './payload-values';

/**
 * Positions in a public trade row: `[TradeId, InstrumentId, Quantity, Price, Order1, Order2,
 * TradeTime, Direction, TakerSide, IsBlockTrade, ClientOrderId]`.
 */
export const TradeColumn = {
  TradeId: 0,
  InstrumentId: 1,
  Quantity: 2,
  Price: 3,
  TradeTime: 6,
  TakerSide: 8,
} as const;

/** The columns read; the trailing flags and ids are not needed. */
const ROW_LENGTH = TradeColumn.TakerSide + 1;

const TAKER_SIDES: Record<number, TakerSide> = { 0: 'buy', 1: 'sell' };
const SIDE_NAMES: Record<string, TakerSide> = { buy: 'buy', sell: 'sell', short: 'sell' };

/** The instruments of a trade payload's rows (or of its one account-event object). */
export function tradeInstruments(payload: ExactJson): number[] {
  return Array.isArray(payload) ? payload.map(tradeInstrumentOf) : [tradeInstrumentOf(payload)];
}

function tradeInstrumentOf(value: ExactJson): number {
  if (Array.isArray(value)) return numberOf(value[TradeColumn.InstrumentId]);
  if (!isJsonObject(value)) return NaN;
  return numberOf(value.InstrumentId ?? value.instrumentId);
}

/** True when the trade payload (rows or one account-event object) holds a trade of the instrument. */
export function hasTradesOf(payload: ExactJson, instrumentId: number): boolean {
  if (Array.isArray(payload)) return payload.some((entry) => tradeInstrumentOf(entry) === instrumentId);
  return tradeInstrumentOf(payload) === instrumentId;
}

function fromRow(row: readonly ExactJson[], path: string, instrument: string): Trade {
  const at = (column: number) => `${path}[${column}]`;
  return {
    id: readIntegerText(row[TradeColumn.TradeId], at(TradeColumn.TradeId)),
    instrument,
    price: readPositiveDecimal(row[TradeColumn.Price], at(TradeColumn.Price)),
    amount: readPositiveDecimal(row[TradeColumn.Quantity], at(TradeColumn.Quantity)),
    side: TAKER_SIDES[readInteger(row[TradeColumn.TakerSide], at(TradeColumn.TakerSide), 0, 1)],
    time: readTimestampMs(row[TradeColumn.TradeTime], at(TradeColumn.TradeTime)),
  };
}

/** Side of an object record: `TakerSide` when present, else `Side` (a name or 0 buy / 1 sell). */
export function readSide(fields: JsonFields, key: string): TakerSide {
  const value = fields.raw(key);
  if (typeof value === 'string') {
    const byName = SIDE_NAMES[value.trim().toLowerCase()];
    if (byName) return byName;
    if (value === '0' || value === '1') return TAKER_SIDES[Number(value)];
  }
  throw new FieldError(fields.at(key), 'Buy, Sell, 0 or 1', value);
}

/**
 * The account event OrderTradeEvent: one object whose `TradeTime` is in .NET ticks and whose `Side` is
 * that of the account's order. It carries no taker side; `TakerSide`, when present, wins over `Side`.
 */
function fromObject(fields: JsonFields, instrument: string): Trade {
  return {
    id: readIntegerText(fields.raw('TradeId'), fields.at('TradeId')),
    instrument,
    price: readPositiveDecimal(fields.raw('Price'), fields.at('Price')),
    amount: readPositiveDecimal(fields.raw('Quantity'), fields.at('Quantity')),
    side: readSide(fields, fields.has('TakerSide') ? 'TakerSide' : 'Side'),
    time: readTimestampMs(fields.raw('TradeTime'), fields.at('TradeTime')),
  };
}

/**
 * Decodes the SubscribeTrades reply and the trade events (TradeDataUpdateEvent, and OrderTradeEvent
 * as the spec names the same public event): an array of positional rows, in order. Also accepts the
 * account event's object shape, alone or in an array. Trades of instruments missing from `names`
 * are left out; the name of the others comes from `names`. Any trade that cannot be read rejects the
 * whole payload, with every problem listed.
 */
export function decodeTrades(payload: ExactJson, names: InstrumentNames, what = 'trades'): Trade[] {
  const problems = new PayloadProblems(what);
  const trades: Trade[] = [];
  const entries = Array.isArray(payload) ? payload : [payload];
  entries.forEach((entry, index) => {
    const path = Array.isArray(payload) ? `[${index}]` : '';
    const trade = problems.read(() => {
      if (isJsonObject(entry)) {
        const fields = pascalCaseFields(entry, path);
        const instrument = names.get(readInteger(fields.raw('InstrumentId'), fields.at('InstrumentId')));
        return instrument === undefined ? undefined : fromObject(fields, instrument);
      }
      const row = positionalRow(entry, path, ROW_LENGTH);
      const instrumentId = readInteger(row[TradeColumn.InstrumentId], `${path}[${TradeColumn.InstrumentId}]`);
      const instrument = names.get(instrumentId);
      return instrument === undefined ? undefined : fromRow(row, path, instrument);
    });
    if (trade) trades.push(trade);
  });
  problems.throwIfAny();
  return trades;
}
