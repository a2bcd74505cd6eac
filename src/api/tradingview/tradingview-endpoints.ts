import { Injectable } from '@nestjs/common';
import { ChartBars } from '../charts/chart-bars';
import type { ApiReply, ApiRequest } from '../http/api-http';
import { CACHE } from '../views/responder';
import { ListingService } from '../views/listing-service';
import { ChartMarkets } from './chart-markets';
import { barQuery, readChartHistoryQuery } from './chart-query';
import { ChartReplies } from './chart-replies';
import { symbolInfoRecord, tradingViewHistoryRecord } from './tradingview-records';

/**
 * TradingView's data integration, pulled by TradingView's servers: every listed market with its
 * display rules (`/symbol_info`) and its bars (`/history`, `from` and `to` in seconds, both inclusive).
 */
@Injectable()
export class TradingViewEndpoints {
  constructor(
    private readonly markets: ChartMarkets,
    private readonly bars: ChartBars,
    private readonly listing: ListingService,
    private readonly replies: ChartReplies,
  ) {}

  symbolInfo(request: ApiRequest, reply: ApiReply): Promise<void> {
    return this.replies.answer(reply, () => {
      const record = symbolInfoRecord(this.markets.all().markets, this.markets.exchange, (symbol) =>
        this.listing.assetName(symbol),
      );
      this.replies.send(request, reply, 'tradingview:symbol_info', record, { cacheControl: CACHE.catalog });
    });
  }

  history(query: Record<string, unknown>, request: ApiRequest, reply: ApiReply): Promise<void> {
    return this.replies.answer(reply, async () => {
      const history = readChartHistoryQuery(query, (name) => this.markets.find(name));
      const { market } = history.market;
      const answer = await this.bars.bars(market, history.resolution, barQuery(history, true));
      this.replies.send(
        request,
        reply,
        `tradingview:history:${market.instrument}:${history.resolution.name}:${history.from}:${history.to}:${history.countback ?? ''}`,
        tradingViewHistoryRecord(history.market, answer),
        { instruments: [market.instrument] },
      );
    });
  }
}
