import { Injectable } from '@nestjs/common';
import type { ApiReply, ApiRequest } from '../http/api-http';
import { toJson } from '../../market/json-number';
import { hasLastPrice } from '../../market/market-summary';
import { CACHE, Responder } from '../views/responder';
import { bookSides } from '../views/book-sides';
import { ListingService } from '../views/listing-service';
import { cmcDepthParam } from './cmc-depth-param';
import { cmcLevelParam } from './cmc-level-param';
import {
  cmcAssetRecord,
  cmcOrderBookRecord,
  cmcPair,
  cmcSummaryRecord,
  cmcTickerRecord,
  cmcTradeRecord,
} from './cmc-records';

/** CoinMarketCap's spot endpoints: summary, assets, ticker, order book and trades per pair. */
@Injectable()
export class CmcEndpoints {
  constructor(
    private readonly listing: ListingService,
    private readonly responder: Responder,
  ) {}

  summary(request: ApiRequest, reply: ApiReply): void {
    this.responder.sendListing(request, reply, 'cmc:summary', CACHE.live, (listing) =>
      JSON.stringify(
        listing.markets
          .map(({ summary }) => summary)
          .filter(hasLastPrice)
          .map((summary) => cmcSummaryRecord(summary)),
      ),
    );
  }

  assets(request: ApiRequest, reply: ApiReply): void {
    this.responder.sendListing(request, reply, 'cmc:assets', CACHE.catalog, () =>
      JSON.stringify(
        Object.fromEntries(this.listing.assets().map((asset) => [asset.symbol, cmcAssetRecord(asset)])),
      ),
    );
  }

  ticker(request: ApiRequest, reply: ApiReply): void {
    this.responder.sendListing(request, reply, 'cmc:ticker', CACHE.live, (listing) =>
      JSON.stringify(
        Object.fromEntries(
          listing.markets
            .map(({ summary }) => summary)
            .filter(hasLastPrice)
            .map((summary) => [
              cmcPair(summary),
              cmcTickerRecord(
                summary,
                this.listing.asset(summary.base)?.unifiedCryptoassetId,
                this.listing.asset(summary.quote)?.unifiedCryptoassetId,
              ),
            ]),
        ),
      ),
    );
  }

  async orderbook(
    pair: string,
    query: Record<string, unknown>,
    request: ApiRequest,
    reply: ApiReply,
  ): Promise<void> {
    const market = this.listing.market(pair);
    const perSide = cmcDepthParam(query.depth);
    const level = cmcLevelParam(query.level);
    await this.responder.sendBook(
      request,
      reply,
      market,
      `cmc:orderbook:${market.instrument}:${perSide}:${level}`,
      (book) => JSON.stringify(cmcOrderBookRecord(book.updatedAt, bookSides(market, book, perSide, level))),
      level === 1 ? 1 : perSide,
    );
  }

  async trades(pair: string, request: ApiRequest, reply: ApiReply): Promise<void> {
    const market = this.listing.market(pair);
    await this.responder.sendTrades(request, reply, market, `cmc:trades:${market.instrument}`, (window) =>
      toJson(window.trades().map(cmcTradeRecord)),
    );
  }
}
