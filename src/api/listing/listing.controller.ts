import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { ApiReply, ApiRequest } from '../http/api-http';
import { DirectHandlers } from '../http/direct-routes';
import { bookLevelParam, depthParam } from '../http/query-params';
import { CACHE, Responder } from '../views/responder';
import { bookSides } from '../views/book-sides';
import { ListingService } from '../views/listing-service';
import { assetRecord, orderBookRecord, summaryRecord, tickerRecord, tradeRecord } from './listing-records';

const PATH = {
  asset: '/asset',
  summary: '/summary',
  ticker: '/ticker',
  orderbook: '/orderbook/:instrument',
  trades: '/trades/:instrument',
} as const;

/**
 * The exchange's aggregator endpoints (spec 4.4): asset, summary, ticker, order book, trades.
 * Fastify calls them directly (`directHandlers`, `serveDirectly`), past Nest's guards, interceptors
 * and pipes, so that a cached body costs little more than its write.
 */
@ApiTags('listing')
@Controller()
export class ListingController {
  constructor(
    private readonly listing: ListingService,
    private readonly responder: Responder,
  ) {}

  /** Every route's method with its arguments as Nest would pass them, for `serveDirectly`. */
  directHandlers(): DirectHandlers {
    const instrument = (request: ApiRequest): string => (request.params as { instrument: string }).instrument;
    const query = (request: ApiRequest): Record<string, unknown> => request.query as Record<string, unknown>;
    return new Map([
      [PATH.asset, (request, reply) => this.asset(request, reply)],
      [PATH.summary, (request, reply) => this.summary(request, reply)],
      [PATH.ticker, (request, reply) => this.ticker(request, reply)],
      [
        PATH.orderbook,
        (request, reply) => this.orderbook(instrument(request), query(request), request, reply),
      ],
      [PATH.trades, (request, reply) => this.trades(instrument(request), request, reply)],
    ]);
  }

  @Get(PATH.asset)
  @ApiOperation({ summary: 'Assets keyed by upper-case symbol' })
  asset(@Req() request: ApiRequest, @Res() reply: ApiReply): void {
    const { generation } = this.listing.markets();
    this.responder.send(request, reply, {
      key: 'asset',
      version: String(generation),
      cacheControl: CACHE.catalog,
      dataTime: this.listing.dataTime(),
      build: () =>
        JSON.stringify(
          Object.fromEntries(this.listing.assets().map((asset) => [asset.symbol, assetRecord(asset)])),
        ),
    });
  }

  @Get(PATH.summary)
  @ApiOperation({
    summary: 'Markets keyed by upper-case BASE_QUOTE: last price, best prices, 24-hour figures',
  })
  summary(@Req() request: ApiRequest, @Res() reply: ApiReply): void {
    const listing = this.listing.markets();
    this.responder.send(request, reply, {
      key: 'summary',
      version: String(listing.generation),
      cacheControl: CACHE.live,
      dataTime: this.listing.dataTime(),
      build: () =>
        JSON.stringify(
          Object.fromEntries(
            listing.markets.map((listed) => [listed.market.instrument.toUpperCase(), summaryRecord(listed)]),
          ),
        ),
    });
  }

  @Get(PATH.ticker)
  @ApiOperation({ summary: 'Markets keyed by lower-case base_quote: last price and 24-hour volumes' })
  ticker(@Req() request: ApiRequest, @Res() reply: ApiReply): void {
    const listing = this.listing.markets();
    this.responder.send(request, reply, {
      key: 'ticker',
      version: String(listing.generation),
      cacheControl: CACHE.live,
      dataTime: this.listing.dataTime(),
      build: () =>
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
    });
  }

  @Get(PATH.orderbook)
  @ApiOperation({ summary: 'Full-depth level 2 book: bids descending, asks ascending, [price, amount]' })
  @ApiParam({ name: 'instrument', example: 'btc_usdt', description: 'any letter case, with _ or -' })
  @ApiQuery({
    name: 'depth',
    required: false,
    description: '0 or absent: full book; an even N: N/2 levels per side',
  })
  @ApiQuery({
    name: 'level',
    required: false,
    description: '1: best bid and ask only; 2 (default): every level',
  })
  async orderbook(
    @Param('instrument') name: string,
    @Query() query: Record<string, unknown>,
    @Req() request: ApiRequest,
    @Res() reply: ApiReply,
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

  @Get(PATH.trades)
  @ApiOperation({ summary: 'Every trade of the last 24 hours, newest first' })
  @ApiParam({ name: 'instrument', example: 'btc_usdt', description: 'any letter case, with _ or -' })
  async trades(
    @Param('instrument') name: string,
    @Req() request: ApiRequest,
    @Res() reply: ApiReply,
  ): Promise<void> {
    const market = this.listing.market(name);
    await this.responder.sendTrades(request, reply, market, `trades:${market.instrument}`, (window) =>
      JSON.stringify(window.trades.map(tradeRecord)),
    );
  }
}
