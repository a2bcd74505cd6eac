import { UDF_MAX_SEARCH_LIMIT, UDF_SEARCH_LIMIT } from '../udf/udf-endpoints';
import { UDF_SCHEMAS } from '../udf/udf-schemas';
import {
  CHART_RESOLUTION,
  chartResponses,
  chartSymbolQuery,
  COUNTBACK,
  unixSecondsQuery,
} from './chart-parameters';
import { EndpointFamily, schemaRef } from './endpoint-family';

const optionalText = (name: string, description: string, example: string) => ({
  name,
  in: 'query' as const,
  required: false,
  description,
  schema: { type: 'string', examples: [example] },
});

/** The paths of the Charting Library's UDF datafeed. */
export const UDF: EndpointFamily = {
  tag: { name: 'udf', description: "The Charting Library's UDF datafeed, errors with HTTP 200" },
  schemas: UDF_SCHEMAS,
  paths: {
    '/udf/config': {
      get: {
        operationId: 'udfConfig',
        tags: ['udf'],
        summary: 'What the datafeed supports: resolutions, search, server time; the exchange and the type',
        description:
          'Read once by the library when it starts; the exchange is the one the gateway names (CHARTS_EXCHANGE_NAME), the type crypto.',
        responses: chartResponses('the configuration', schemaRef('UdfConfigAnswer'), 'catalog'),
      },
    },
    '/udf/symbols': {
      get: {
        operationId: 'udfSymbols',
        tags: ['udf'],
        summary: "One market's symbol information",
        description: 'The symbol may carry the exchange as the library writes it (`SANDBOX:BTCUSDT`).',
        parameters: [chartSymbolQuery('the market')],
        responses: chartResponses('the symbol or an error', schemaRef('UdfSymbolAnswer'), 'catalog'),
      },
    },
    '/udf/search': {
      get: {
        operationId: 'udfSearch',
        tags: ['udf'],
        summary: 'Listed markets whose symbol, instrument or asset names contain the query',
        description:
          'Matches in the order of the instruments, at most `limit`; a type or exchange other than the gateway one finds nothing.',
        parameters: [
          optionalText('query', 'text to look for, any letter case; absent: every market', 'BTC'),
          optionalText('type', 'crypto, or empty for all; another type finds nothing', 'crypto'),
          optionalText('exchange', 'the exchange, or empty for all; another finds nothing', 'SANDBOX'),
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: `the first N matches by instrument, 1 to ${UDF_MAX_SEARCH_LIMIT}`,
            schema: {
              type: 'integer',
              minimum: 1,
              maximum: UDF_MAX_SEARCH_LIMIT,
              default: UDF_SEARCH_LIMIT,
            },
          },
        ],
        responses: chartResponses('the matches or an error', schemaRef('UdfSearchAnswer'), 'catalog'),
      },
    },
    '/udf/history': {
      get: {
        operationId: 'udfHistory',
        tags: ['udf'],
        summary: 'Bars starting from `from` (inclusive) to `to` (exclusive); no_data with `nextTime`',
        description:
          'A bar for each period with a trade, none for one without. `countback` takes precedence over `from`. No bar: `{"s":"no_data","nextTime"}` with the start of the newest older bar, without `nextTime` when history holds none.',
        parameters: [
          chartSymbolQuery('the market'),
          CHART_RESOLUTION,
          unixSecondsQuery('from', 'earliest bar start, inclusive'),
          unixSecondsQuery('to', 'end of the range, exclusive; not before from'),
          COUNTBACK,
        ],
        responses: chartResponses('the bars, no_data or an error', schemaRef('UdfHistory'), 'live'),
      },
    },
    '/udf/time': {
      get: {
        operationId: 'udfTime',
        tags: ['udf'],
        summary: "The server's clock, Unix seconds as plain text",
        description: 'The library aligns its clock with it (`supports_time`); never cached.',
        responses: {
          '200': {
            description: 'Unix seconds',
            headers: {
              'Cache-Control': { $ref: '#/components/headers/NoStore' },
              'X-Request-Id': { $ref: '#/components/headers/RequestId' },
            },
            content: {
              'text/plain': { schema: { type: 'string', pattern: '^[0-9]+$', examples: ['1795680000'] } },
            },
          },
          '405': { $ref: '#/components/responses/MethodNotAllowed' },
          '406': { $ref: '#/components/responses/NotAcceptable' },
          '413': { $ref: '#/components/responses/PayloadTooLarge' },
          '414': { $ref: '#/components/responses/UriTooLong' },
          '429': { $ref: '#/components/responses/TooManyRequests' },
        },
      },
    },
  },
};
