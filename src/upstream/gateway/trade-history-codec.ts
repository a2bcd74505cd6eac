import { TakerSide, Trade } from '../../market/trade';
import { FieldError, JsonFields } from '../json-fields';
import { ExactJson } from '../exact-json';
import { InstrumentNames } from './instrument-ref';
import {
  pascalCaseFields,
  payloadArray,
  PayloadProblems,
  readInteger,
  readIntegerText,
  readPositiveDecimal,
  readTimestampMs,
} from './payload-values';
import { readSide } from './trade-rows-codec';

/** One side of a trade from GetTradesHistory: every trade has a maker and a taker execution. */
export interface TradeExecution {
  /** Identifies the execution across pages: ExecutionId, else TradeId with the role or side. */
  readonly key: string;
  readonly tradeId: string;
  readonly instrumentId: number;
  /** Side of this execution's order. */
  readonly side: TakerSide;
  /** undefined when the record does not say. */
  readonly role?: 'maker' | 'taker';
  readonly price: string;
  readonly amount: string;
  /** Unix milliseconds. */
  readonly time: number;
}

function role(fields: JsonFields): TradeExecution['role'] {
  if (!fields.has('MakerTaker')) return undefined;
  const value = fields.raw('MakerTaker');
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (text === 'maker' || text === 'taker') return text;
  throw new FieldError(fields.at('MakerTaker'), 'Maker or Taker', value);
}

/** The record's time: `TradeTimeMS` (Unix ms, or ticks as the spec has it), else `TradeTime` (ticks). */
function time(fields: JsonFields): number {
  const key = fields.has('TradeTimeMS') ? 'TradeTimeMS' : 'TradeTime';
  return readTimestampMs(fields.raw(key), fields.at(key));
}

function execution(fields: JsonFields): TradeExecution {
  const tradeId = readIntegerText(fields.raw('TradeId'), fields.at('TradeId'));
  const side = readSide(fields, fields.has('Side') ? 'Side' : 'Sides');
  const executionRole = role(fields);
  const key = fields.has('ExecutionId')
    ? readIntegerText(fields.raw('ExecutionId'), fields.at('ExecutionId'))
    : `${tradeId}:${executionRole ?? side}`;
  return {
    key,
    tradeId,
    instrumentId: readInteger(fields.raw('InstrumentId'), fields.at('InstrumentId')),
    side,
    ...(executionRole ? { role: executionRole } : {}),
    price: readPositiveDecimal(fields.raw('Price'), fields.at('Price')),
    amount: readPositiveDecimal(fields.raw('Quantity'), fields.at('Quantity')),
    time: time(fields),
  };
}

/**
 * Decodes a GetTradesHistory reply into its executions, in the reply's order (most recent first).
 * Keys may be PascalCase or camelCase; `Side` may be named `Sides`. Any record that cannot be read
 * rejects the whole reply, with every problem listed.
 */
export function decodeTradeHistory(payload: ExactJson): TradeExecution[] {
  const problems = new PayloadProblems('GetTradesHistory reply');
  const executions: TradeExecution[] = [];
  payloadArray(payload, 'GetTradesHistory reply').forEach((entry, index) => {
    const decoded = problems.read(() => execution(pascalCaseFields(entry, `[${index}]`)));
    if (decoded) executions.push(decoded);
  });
  problems.throwIfAny();
  return executions;
}

const OPPOSITE: Record<TakerSide, TakerSide> = { buy: 'sell', sell: 'buy' };

/**
 * One public trade per TradeId, in the order of each trade's first execution. The trade's side is
 * the taker's: the taker execution's side, else the opposite of the maker's, else (records that do
 * not say which they are) the side of the first record. Executions of instruments missing from `names` are left
 * out.
 */
export function tradesFromExecutions(executions: readonly TradeExecution[], names: InstrumentNames): Trade[] {
  interface Sides {
    readonly first: TradeExecution;
    taker?: TakerSide;
    fromMaker?: TakerSide;
    unmarked?: TakerSide;
  }
  const byId = new Map<string, Sides>();
  for (const execution of executions) {
    if (!names.has(execution.instrumentId)) continue;
    let sides = byId.get(execution.tradeId);
    if (!sides) byId.set(execution.tradeId, (sides = { first: execution }));
    if (execution.role === 'taker') sides.taker ??= execution.side;
    else if (execution.role === 'maker') sides.fromMaker ??= OPPOSITE[execution.side];
    else sides.unmarked ??= execution.side;
  }
  return [...byId.values()].map(({ first, taker, fromMaker, unmarked }) => ({
    id: first.tradeId,
    instrument: names.get(first.instrumentId)!,
    price: first.price,
    amount: first.amount,
    side: (taker ?? fromMaker ?? unmarked)!,
    time: first.time,
  }));
}
