import { readDecimal } from '../json-fields';
import { ExactJson } from '../exact-json';
import { InstrumentRef } from './instrument-ref';
import { Level1 } from './level1';
import { pascalCaseFields, PayloadProblems, readInteger, readTimestampMs } from './payload-values';

/**
 * Decodes a SubscribeLevel1 reply or Level1UpdateEvent of the instrument `ref`. Keys may be
 * PascalCase or camelCase; the trade count may be named `Rolling24HrNumTrades` or
 * `Rolling24NumTrades`; `TimeStamp` may be a number or a string. A record of another instrument, or
 * one with a field that cannot be read, is an error listing every problem.
 */
export function decodeLevel1(payload: ExactJson, ref: InstrumentRef, receivedAt: number): Level1 {
  const problems = new PayloadProblems('Level 1 record');
  const fields = problems.read(() => pascalCaseFields(payload, ''));
  if (!fields) return problems.fail('expected an object');
  const decimal = (key: string) => problems.read(() => readDecimal(fields.raw(key), fields.at(key)));
  const integer = (key: string) => problems.read(() => readInteger(fields.raw(key), fields.at(key)));
  const countKey = fields.has('Rolling24HrNumTrades') ? 'Rolling24HrNumTrades' : 'Rolling24NumTrades';
  const instrumentId = integer('InstrumentId');
  const level1 = {
    instrument: ref.instrument,
    instrumentId: instrumentId!,
    bestBid: decimal('BestBid')!,
    bestOffer: decimal('BestOffer')!,
    lastTradedPrice: decimal('LastTradedPx')!,
    lastTradedQuantity: decimal('LastTradedQty')!,
    lastTradeTime: integer('LastTradeTime')!,
    rolling24hVolume: decimal('Rolling24HrVolume')!,
    rolling24hTradeCount: integer(countKey)!,
    time: fields.has('TimeStamp')
      ? problems.read(() => readTimestampMs(fields.raw('TimeStamp'), fields.at('TimeStamp')))!
      : receivedAt,
  };
  problems.throwIfAny();
  if (instrumentId !== ref.instrumentId)
    problems.fail(`InstrumentId ${instrumentId} is not ${ref.instrumentId}`);
  return level1;
}
