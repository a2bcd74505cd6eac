import { Controller, Get, Header, Inject, Param } from '@nestjs/common';
import { toJson } from '../http/json-number';
import { findMarket } from '../rest/find-market';
import { JSON_CONTENT_TYPE } from '../rest/json-content-type';
import { orderBookSnapshot } from '../rest/order-book-view';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { DAY_MS } from '../simulation/trade-log';
import { tradeRow } from './trade-row';

@Controller('sandbox/truth')
export class TruthController {
  constructor(@Inject(SandboxExchange) private readonly exchange: SandboxExchange) {}

  /**
   * What the market really is, past any delta fault: its full book and its trades of the last
   * 24 hours (`now - 24h < time <= now`, oldest first). Both are read in one synchronous step, so
   * no operation of the market falls between them.
   */
  @Get(':instrument')
  @Header('content-type', JSON_CONTENT_TYPE)
  truth(@Param('instrument') instrument: string): string {
    const market = findMarket(this.exchange, instrument);
    const now = this.exchange.clock.now();
    const book = orderBookSnapshot(market);
    const trades = market.tradeLog.between(now - DAY_MS, now).map((trade) => tradeRow(trade, market.spec));
    return toJson({ book, trades });
  }
}
