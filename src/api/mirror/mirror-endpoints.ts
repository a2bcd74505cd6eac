import { Injectable } from '@nestjs/common';
import type { ApiReply, ApiRequest } from '../http/api-http';
import { dotNetTicks } from '../../market/dotnet-ticks';
import { readHistoryQuery } from '../../market/history-query';
import { toJson } from '../../market/json-number';
import { MarketCatalog, MarketInfo } from '../../market/market-info';
import { ApiError } from '../http/api-error';
import { CACHE, Responder } from '../views/responder';
import { ExchangeCatalog } from '../views/exchange-catalog';
import { ListingService } from '../views/listing-service';
import { historyCandles } from './history-candles';
import { depthRecord, exchangeInfoJson, historyRecord, pairsJson } from './mirror-records';

/**
 * The exchange's public REST at its own paths and in its own shapes, served from the gateway's state
 * instead of the exchange: the market list, the order book and candles.
 */
@Injectable()
export class MirrorEndpoints {
  private pairs = { refreshedAt: Number.NaN, json: '' };

  constructor(
    private readonly listing: ListingService,
    private readonly catalog: ExchangeCatalog,
    private readonly responder: Responder,
  ) {}

  async info(request: ApiRequest, reply: ApiReply): Promise<void> {
    const catalog = await this.catalog.catalog();
    const pairs = this.pairsJson(catalog);
    const now = Date.now();
    this.responder.send(request, reply, {
      key: 'mirror:info',
      // serverTime is the time of the answer, so every millisecond has its own body.
      version: `${catalog.refreshedAt}:${now}`,
      cacheControl: CACHE.live,
      dataTime: catalog.refreshedAt,
      build: () => exchangeInfoJson(dotNetTicks(now), pairs),
    });
  }

  async depth(name: string, request: ApiRequest, reply: ApiReply): Promise<void> {
    const market = await this.mirroredMarket(name);
    await this.responder.sendBook(request, reply, market, `mirror:depth:${market.instrument}`, (book) =>
      toJson(depthRecord(market.instrument, book)),
    );
  }

  async history(
    name: string,
    query: Record<string, unknown>,
    request: ApiRequest,
    reply: ApiReply,
  ): Promise<void> {
    const market = await this.mirroredMarket(name);
    const reading = readHistoryQuery(query);
    if ('problems' in reading) throw ApiError.badRequest('bad_request', reading.problems.join('; '));
    const { query: history } = reading;
    await this.responder.sendTrades(
      request,
      reply,
      market,
      `mirror:history:${market.instrument}:${history.from}:${history.to}:${history.interval}:${history.count}`,
      (window) => toJson(historyRecord(market.instrument, history, historyCandles(window.trades(), history))),
    );
  }

  /** The market list as JSON, rebuilt only when the catalogue is refreshed. */
  private pairsJson(catalog: MarketCatalog): string {
    if (this.pairs.refreshedAt !== catalog.refreshedAt)
      this.pairs = { refreshedAt: catalog.refreshedAt, json: pairsJson(catalog.markets) };
    return this.pairs.json;
  }

  /** A market whose book and trades the gateway holds: a listed one. A hidden market is a 404 of its own. */
  private async mirroredMarket(name: string): Promise<MarketInfo> {
    try {
      return this.listing.market(name);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
      const market = await this.catalog.find(name);
      if (market?.hidden) {
        throw ApiError.notFound(
          'hidden_instrument',
          `${market.instrument} is hidden: the gateway does not ingest its book or trades`,
        );
      }
      throw error;
    }
  }
}
