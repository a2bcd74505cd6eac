import type { ParameterObject, ReferenceObject, ResponseObject } from '@nestjs/swagger';
import { CHART_RESOLUTION_NAMES } from '../../market/bars/chart-resolution';
import { MAX_COUNTBACK, MAX_UNIX_SECONDS } from '../tradingview/chart-query';
import { Cache, cachedJsonResponses } from './responses';

/** Parameters and responses shared by TradingView's endpoints and the UDF datafeed. */

export function chartSymbolQuery(description: string): ParameterObject {
  return {
    name: 'symbol',
    in: 'query',
    required: true,
    description:
      `${description}: the TradingView symbol (\`BTCUSDT\`) or the instrument in any letter case with \`_\` or ` +
      '`-` (`btc_usdt`, `BTC-USDT`); unknown, absent or repeated is an error',
    schema: { type: 'string', examples: ['BTCUSDT'] },
  };
}

export const CHART_RESOLUTION: ParameterObject = {
  name: 'resolution',
  in: 'query',
  required: true,
  description: 'bar width: minutes, or 1D, 1W, 1M (also D, W, M); weeks start on Monday, all UTC',
  schema: { type: 'string', enum: [...CHART_RESOLUTION_NAMES, 'D', 'W', 'M'], examples: ['1'] },
};

export function unixSecondsQuery(name: string, description: string): ParameterObject {
  return {
    name,
    in: 'query',
    required: true,
    description: `${description}, Unix seconds (an integer, negative before 1970)`,
    schema: {
      type: 'integer',
      minimum: -MAX_UNIX_SECONDS,
      maximum: MAX_UNIX_SECONDS,
      examples: [1795680000],
    },
  };
}

export const COUNTBACK: ParameterObject = {
  name: 'countback',
  in: 'query',
  required: false,
  description: `the newest N bars up to \`to\`, 1 to ${MAX_COUNTBACK}; given, \`from\` is not used`,
  schema: { type: 'integer', minimum: 1, maximum: MAX_COUNTBACK, examples: [300] },
};

/**
 * A cached JSON answer whose errors are in its body with a 200, as TradingView and the Charting
 * Library expect: no 400, 404 or 503; the server's own refusals (405, 406, 413, 414, 429) remain.
 */
export function chartResponses(
  description: string,
  schema: ReferenceObject,
  cache: Cache,
): Record<string, ResponseObject | ReferenceObject> {
  const responses = { ...cachedJsonResponses(description, schema, cache) };
  delete responses['503'];
  const ok = responses['200'] as ResponseObject;
  const maxAge = { live: 'public, max-age=1', catalog: 'public, max-age=60', none: 'no-store' }[cache];
  responses['200'] = {
    ...ok,
    headers: {
      ...ok.headers,
      // An error body is never cached: no validator, no data age.
      ETag: {
        description: 'weak tag of the body, the same bytes the same tag; absent on an error',
        schema: { type: 'string' },
      },
      'Cache-Control': {
        required: true,
        description: `\`${maxAge}\`, or \`no-store\` on an error`,
        schema: { type: 'string', enum: [...new Set([maxAge, 'no-store'])] },
      },
      'X-Data-Age-Ms': {
        description: 'milliseconds since the data behind the body was last known current; absent on an error',
        schema: { type: 'string', pattern: '^([0-9]+|unknown)$' },
      },
    },
  };
  return responses;
}
