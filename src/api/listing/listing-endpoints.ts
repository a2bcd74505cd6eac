import { Injectable } from '@nestjs/common';
import type { ApiReply, ApiRequest } from '../http/api-http';
import { bookLevelParam, depthParam } from '../http/query-params';
import { CACHE, Responder } from '../views/responder';
import { bookSides } from '../views/book-sides';
import { ListingService } from '../views/listing-service';
import { assetRecord, orderBookRecord, summaryRecord, tickerRecord, tradeRecord } from './listing-records';

/**
 * The exchange's aggregator endpoints (spec 4.4): asset, summary, ticker, order book, trades.
 */
@Injectable()
export class ListingEndpoints {
  constructor(
    private readonly listing: ListingService,
    private readonly responder: Responder,
  ) {}

  asset(request: ApiRequest, reply: ApiReply): void {
    this.responder.sendListing(request, reply, 'asset', CACHE.catalog, () =>
      JSON.stringify(
        Object.fromEntries(this.listing.assets().map((asset) => [asset.symbol, assetRecord(asset)])),
      ),
    );
  }

  summary(request: ApiRequest, reply: ApiReply): void {
    this.responder.sendListing(request, reply, 'summary', CACHE.live, (listing) =>
      JSON.stringify(
        Object.fromEntries(
          listing.markets.map((listed) => [listed.market.instrument.toUpperCase(), summaryRecord(listed)]),
        ),
      ),
    );
  }

  ticker(request: ApiRequest, reply: ApiReply): void {
    this.responder.sendListing(request, reply, 'ticker', CACHE.live, (listing) =>
      JSON.stringify(
        Object.fromEntries(
          listing.markets.map(({ market, summary }) => [
            market.instrument,
            tickerRecord(
              summary,
              this.listing.assetName(summary.base),
              this.listing.assetName(summary.quote),
            ),
          ]),
        ),
      ),
    );
  }

  async orderbook(
    name: string,
    query: Record<string, unknown>,
    request: ApiRequest,
    reply: ApiReply,
  ): Promise<void> {
    const market = this.listing.market(name);
    const perSide = depthParam(query.depth);
    const level = bookLevelParam(query.level);
    await this.responder.sendBook(
      request,
      reply,
      market,
      `orderbook:${market.instrument}:${perSide}:${level}`,
      (book) => JSON.stringify(orderBookRecord(book.updatedAt, bookSides(market, book, perSide, level))),
      level === 1 ? 1 : perSide,
    );
  }

  async trades(name: string, request: ApiRequest, reply: ApiReply): Promise<void> {
    const market = this.listing.market(name);
    await this.responder.sendTrades(request, reply, market, `trades:${market.instrument}`, (window) =>
      JSON.stringify(window.trades().map(tradeRecord)),
    );
  }
}
