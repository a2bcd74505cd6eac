import { Controller, Get, Header, Inject, Param, Query } from '@nestjs/common';
import { toJson } from '../http/json-number';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { candleHistory } from './candle-history';
import { findMarket } from './find-market';
import { parseHistoryQuery } from './history-query';
import { JSON_CONTENT_TYPE } from './json-content-type';
import { orderBookSnapshot } from './order-book-view';

@Controller('marketdata/instruments/:instrument')
export class MarketDataController {
  constructor(@Inject(SandboxExchange) private readonly exchange: SandboxExchange) {}

  /** The full order book with its version (spec 2.2); both sides ascending by price. */
  @Get('depth')
  @Header('content-type', JSON_CONTENT_TYPE)
  depth(@Param('instrument') instrument: string): string {
    return toJson(orderBookSnapshot(findMarket(this.exchange, instrument)));
  }

  /** Candles built from the market's own trades (spec 2.3). */
  @Get('history')
  @Header('content-type', JSON_CONTENT_TYPE)
  history(@Param('instrument') instrument: string, @Query() query: Record<string, unknown>): string {
    const market = findMarket(this.exchange, instrument);
    return toJson(candleHistory(market, parseHistoryQuery(query)));
  }
}
