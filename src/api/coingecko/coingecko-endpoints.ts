import { Injectable } from '@nestjs/common';
import type { ApiReply, ApiRequest } from '../http/api-http';
import { toJson } from '../../market/json-number';
import { hasLastPrice } from '../../market/market-summary';
import { depthParam } from '../http/query-params';
import { CACHE, Responder } from '../views/responder';
import { bookSides } from '../views/book-sides';
import { ListingService } from '../views/listing-service';
import {
  coingeckoOrderBookRecord,
  coingeckoPairRecord,
  coingeckoTickerRecord,
  coingeckoTradeRecord,
} from './coingecko-records';
import { readHistoricalTradesQuery, selectHistoricalTrades } from './historical-trades-query';
import { tickerIdParam } from './ticker-id-param';

/** CoinGecko's spot endpoints: pairs, tickers, order book and historical trades. */
@Injectable()
export class CoingeckoEndpoints {
  constructor(
    private readonly listing: ListingService,
    private readonly responder: Responder,
  ) {}

  pairs(request: ApiRequest, reply: ApiReply): void {
    this.responder.sendListing(request, reply, 'coingecko:pairs', CACHE.catalog, (listing) =>
      JSON.stringify(listing.markets.map(({ summary }) => coingeckoPairRecord(summary))),
    );
  }

  tickers(request: ApiRequest, reply: ApiReply): void {
    this.responder.sendListing(request, reply, 'coingecko:tickers', CACHE.live, (listing) =>
      JSON.stringify(
        listing.markets
          .map(({ summary }) => summary)
          .filter(hasLastPrice)
          .map((summary) => coingeckoTickerRecord(summary)),
      ),
    );
  }

  async orderbook(query: Record<string, unknown>, request: ApiRequest, reply: ApiReply): Promise<void> {
    const market = this.listing.market(tickerIdParam(query.ticker_id));
    const perSide = depthParam(query.depth);
    const tickerId = market.instrument.toUpperCase();
    await this.responder.sendBook(
      request,
      reply,
      market,
      `coingecko:orderbook:${market.instrument}:${perSide}`,
      (book) =>
        JSON.stringify(
          coingeckoOrderBookRecord(tickerId, book.updatedAt, bookSides(market, book, perSide, 2)),
        ),
      perSide,
    );
  }

  async historicalTrades(
    query: Record<string, unknown>,
    request: ApiRequest,
    reply: ApiReply,
  ): Promise<void> {
    const market = this.listing.market(tickerIdParam(query.ticker_id));
    const selection = readHistoricalTradesQuery(query);
    const { type, limit, from, to } = selection;
    await this.responder.sendTrades(
      request,
      reply,
      market,
      `coingecko:historical_trades:${market.instrument}:${type ?? 'all'}:${limit}:${from}:${to}`,
      (window) => {
        const { buy, sell } = selectHistoricalTrades(window.trades(), selection);
        return toJson({ buy: buy.map(coingeckoTradeRecord), sell: sell.map(coingeckoTradeRecord) });
      },
    );
  }
}
