import { HistoryQuery, readHistoryQuery } from '../wire/history-query';
import { ExchangeError } from './exchange-error';

export type { HistoryQuery };

/**
 * Validates the query of `/marketdata/instruments/{instrument}/history`. Throws a 400 ExchangeError
 * with one entry per bad parameter, each naming it.
 */
export function parseHistoryQuery(query: Readonly<Record<string, unknown>>): HistoryQuery {
  const reading = readHistoryQuery(query);
  if ('problems' in reading) throw ExchangeError.badRequest(reading.problems);
  return reading.query;
}
