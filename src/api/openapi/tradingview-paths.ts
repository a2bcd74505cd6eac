import { TRADINGVIEW_SCHEMAS } from '../tradingview/tradingview-schemas';
import {
  CHART_RESOLUTION,
  chartResponses,
  chartSymbolQuery,
  COUNTBACK,
  unixSecondsQuery,
} from './chart-parameters';
import { EndpointFamily, schemaRef } from './endpoint-family';

/** The paths of TradingView's data integration (its REST specification's `/symbol_info` and `/history`). */
export const TRADINGVIEW: EndpointFamily = {
  tag: {
    name: 'tradingview',
    description: "TradingView's data integration: the symbols and their bars, errors with HTTP 200",
  },
  schemas: TRADINGVIEW_SCHEMAS,
  paths: {
    '/tradingview/symbol_info': {
      get: {
        operationId: 'tradingViewSymbolInfo',
        tags: ['tradingview'],
        summary: 'Every listed market with the rules TradingView shows and builds its bars by',
        description:
          'Fields that can differ between markets are arrays in the order of `symbol`; the others one value for all. Other query parameters are not used.',
        responses: chartResponses('every listed market', schemaRef('TradingViewSymbolInfoAnswer'), 'catalog'),
      },
    },
    '/tradingview/history': {
      get: {
        operationId: 'tradingViewHistory',
        tags: ['tradingview'],
        summary: 'Bars starting from `from` to `to`, both inclusive; no_data with `nb` before a gap',
        description:
          'A bar for each period with a trade, none for one without. No bar in the range: `{"s":"no_data","nb"}` with the start of the newest older bar, without `nb` when history holds none. A bad parameter: `{"s":"error","errmsg"}` naming it.',
        parameters: [
          chartSymbolQuery('the market'),
          CHART_RESOLUTION,
          unixSecondsQuery('from', 'earliest bar start, inclusive'),
          unixSecondsQuery('to', 'latest bar start, inclusive; not before from'),
          COUNTBACK,
        ],
        responses: chartResponses('the bars, no_data or an error', schemaRef('TradingViewHistory'), 'live'),
      },
    },
  },
};
