import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CANDLE_INTERVALS, MAX_CANDLES } from '../../market/candle-interval';
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

const INSTRUMENT_PARAM = {
  name: 'instrument',
  example: 'btc_usdt',
  description: 'base_quote as the exchange writes it (lower case); any letter case with _ or - is accepted',
};

/**
 * The exchange's public REST at its own paths and in its own shapes, served from the gateway's state
 * instead of the exchange: the market list, the order book and candles.
 */
@ApiTags('mirror')
@Controller()
export class MirrorController {
  private pairs = { refreshedAt: Number.NaN, json: '' };

  constructor(
    private readonly listing: ListingService,
    private readonly catalog: ExchangeCatalog,
    private readonly responder: Responder,
  ) {}

  @Get('frontoffice/api/info')
  @ApiOperation({
    summary: 'Every market of the exchange, hidden ones included (hidden: 1); serverTime in .NET ticks',
  })
  async info(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
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

  @Get('marketdata/instruments/:instrument/depth')
  @ApiOperation({
    summary: 'Full book: both sides ascending by price, amounts and prices as numbers, version, totals',
  })
  @ApiParam(INSTRUMENT_PARAM)
  async depth(
    @Param('instrument') name: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const market = await this.mirroredMarket(name);
    await this.responder.sendBook(request, reply, market, `mirror:depth:${market.instrument}`, (book) =>
      toJson(depthRecord(market.instrument, book)),
    );
  }

  @Get('marketdata/instruments/:instrument/history')
  @ApiOperation({
    summary:
      'Candles of the trades the gateway holds (the last 24 hours) in [startDate, endDate); ' +
      'older parts of the range are empty',
  })
  @ApiParam(INSTRUMENT_PARAM)
  @ApiQuery({
    name: 'startDate',
    required: true,
    example: '2024-05-01T00:00:00',
    description: 'UTC, inclusive',
  })
  @ApiQuery({
    name: 'endDate',
    required: true,
    example: '2024-05-02T00:00:00',
    description: 'UTC, exclusive',
  })
  @ApiQuery({ name: 'type', required: true, enum: CANDLE_INTERVALS })
  @ApiQuery({
    name: 'count',
    required: false,
    description: `the newest N candles, 1 to ${MAX_CANDLES} (default ${MAX_CANDLES})`,
  })
  async history(
    @Param('instrument') name: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
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
      (window) => toJson(historyRecord(market.instrument, history, historyCandles(window.trades, history))),
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
