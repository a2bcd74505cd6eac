import { BookMessage, BookSide, LevelUpdate } from '../../market/book-update';
import { decimalText, readDecimal } from '../json-fields';
import { ExactJson } from '../exact-json';
import { isDigit } from '../json-char-codes';
import { InstrumentRef } from './instrument-ref';
import {
  numberOf,
  payloadArray,
  PayloadProblems,
  positionalRow,
  readInteger,
  readPositiveDecimal,
} from './payload-values';

/**
 * Positions in a Level 2 row: `[MDUpdateId, NumAccounts, ActionDateTime, ActionType, LastTradePrice,
 * NumOrders, Price, InstrumentId, Quantity, Side]`.
 */
export const Level2Column = {
  UpdateId: 0,
  ActionDateTime: 2,
  ActionType: 3,
  Price: 6,
  InstrumentId: 7,
  Quantity: 8,
  Side: 9,
} as const;

const ROW_LENGTH = 10;
const DELETE = 2;
const SIDES: Record<number, BookSide> = { 0: 'bid', 1: 'ask' };

interface Level2Rows {
  readonly updates: LevelUpdate[];
  readonly version: number;
  /** Highest ActionDateTime, 0 when there is none. */
  readonly time: number;
}

/** The instruments of a Level 2 payload's rows. */
export function level2Instruments(payload: ExactJson): number[] {
  return Array.isArray(payload)
    ? payload.map((row) => (Array.isArray(row) ? numberOf(row[Level2Column.InstrumentId]) : NaN))
    : [];
}

/** True when the Level 2 payload holds at least one row of the instrument. */
export function hasLevel2Rows(payload: ExactJson, instrumentId: number): boolean {
  return (
    Array.isArray(payload) &&
    payload.some((row) => Array.isArray(row) && numberOf(row[Level2Column.InstrumentId]) === instrumentId)
  );
}

/** A safe non-negative integer written as plain digits, else undefined (then the checked read decides). */
function plainInteger(value: ExactJson | undefined): number | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 16) return undefined;
  for (let at = 0; at < value.length; at++) if (!isDigit(value.charCodeAt(at))) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : undefined;
}

/**
 * A well-formed row read without the paths and closures that only a problem needs: the level it
 * sets, SKIP for a row of another instrument, undefined for anything the checked read must judge.
 */
function plainRow(
  row: ExactJson,
  instrumentId: number,
): { update: LevelUpdate; updateId: number; changedAt: number } | typeof SKIP | undefined {
  if (!Array.isArray(row) || row.length < ROW_LENGTH) return undefined;
  const instrument = plainInteger(row[Level2Column.InstrumentId]);
  if (instrument === undefined) return undefined;
  if (instrument !== instrumentId) return SKIP;
  const updateId = plainInteger(row[Level2Column.UpdateId]);
  const changedAt = plainInteger(row[Level2Column.ActionDateTime]);
  const action = plainInteger(row[Level2Column.ActionType]);
  const side = SIDES[plainInteger(row[Level2Column.Side]) ?? -1];
  const price = decimalText(row[Level2Column.Price]);
  const amount = action === DELETE ? '0' : decimalText(row[Level2Column.Quantity]);
  if (updateId === undefined || changedAt === undefined || action === undefined || action > DELETE)
    return undefined;
  if (side === undefined || price === undefined || price === '0' || amount === undefined) return undefined;
  return { update: { side, price, amount }, updateId, changedAt };
}

const SKIP = Symbol('a row of another instrument');

function decodeRows(payload: ExactJson, ref: InstrumentRef, what: string): Level2Rows {
  const problems = new PayloadProblems(what);
  const updates: LevelUpdate[] = [];
  let version = 0;
  let time = 0;
  const rows = payloadArray(payload, what);
  for (let index = 0; index < rows.length; index++) {
    const value = rows[index];
    const plain = plainRow(value, ref.instrumentId);
    if (plain === SKIP) continue;
    if (plain !== undefined) {
      updates.push(plain.update);
      version = Math.max(version, plain.updateId);
      time = Math.max(time, plain.changedAt);
      continue;
    }
    problems.read(() => {
      const at = (column: number) => `[${index}][${column}]`;
      const row = positionalRow(value, `[${index}]`, ROW_LENGTH);
      const column = (name: keyof typeof Level2Column) => row[Level2Column[name]];
      if (readInteger(column('InstrumentId'), at(Level2Column.InstrumentId)) !== ref.instrumentId) return;
      const updateId = readInteger(column('UpdateId'), at(Level2Column.UpdateId));
      const changedAt = readInteger(column('ActionDateTime'), at(Level2Column.ActionDateTime));
      const action = readInteger(column('ActionType'), at(Level2Column.ActionType), 0, DELETE);
      const side = SIDES[readInteger(column('Side'), at(Level2Column.Side), 0, 1)];
      const price = readPositiveDecimal(column('Price'), at(Level2Column.Price));
      // A deleted level's quantity means nothing; gateways send 0 or the old size.
      const amount = action === DELETE ? '0' : readDecimal(column('Quantity'), at(Level2Column.Quantity));
      updates.push({ side, price, amount });
      version = Math.max(version, updateId);
      time = Math.max(time, changedAt);
    });
  }
  problems.throwIfAny();
  return { updates, version, time };
}

/**
 * The SubscribeLevel2 or GetL2Snapshot reply as a snapshot of one instrument. Rows of other
 * instruments are left out; an empty book (`[]`) is a snapshot without levels at version 0.
 * `version` is the highest MDUpdateId, `time` the latest ActionDateTime (else `receivedAt`).
 */
export function decodeLevel2Snapshot(
  payload: ExactJson,
  ref: InstrumentRef,
  receivedAt: number,
): BookMessage {
  const rows = decodeRows(payload, ref, 'Level 2 snapshot');
  return {
    instrument: ref.instrument,
    version: rows.version,
    snapshot: true,
    updates: rows.updates,
    time: rows.time || receivedAt,
  };
}

/**
 * A Level2UpdateEvent as a delta of one instrument whose updates keep the rows' order (a level can
 * be deleted and set again in one frame). ActionType 0 and 1 set the level, 2 deletes it (amount
 * "0"). `version` is the highest MDUpdateId: ids skip and are unsorted within a frame, so they give
 * an order but no gap rule. undefined when the frame holds no row of the instrument.
 */
export function decodeLevel2Update(
  payload: ExactJson,
  ref: InstrumentRef,
  receivedAt: number,
): BookMessage | undefined {
  const rows = decodeRows(payload, ref, 'Level2UpdateEvent');
  if (rows.updates.length === 0) return undefined;
  return {
    instrument: ref.instrument,
    version: rows.version,
    snapshot: false,
    updates: rows.updates,
    time: rows.time || receivedAt,
  };
}
