import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
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

const PAIR_PARAM = {
  name: 'pair',
  example: 'BTC_USDT',
  description: 'base_quote in any letter case, with _ or -',
};

/** CoinMarketCap's spot endpoints: summary, assets, ticker, order book and trades per pair. */
@ApiTags('coinmarketcap')
@Controller('cmc')
export class CmcController {
  constructor(
    private readonly listing: ListingService,
    private readonly responder: Responder,
  ) {}

  @Get('summary')
  @ApiOperation({
    summary:
      'Every listed market with a known last price: best prices, 24-hour volumes, change (percent), high and low',
  })
  summary(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const listing = this.listing.markets();
    this.responder.send(request, reply, {
      key: 'cmc:summary',
      version: String(listing.generation),
      cacheControl: CACHE.live,
      dataTime: this.listing.dataTime(),
      build: () =>
        JSON.stringify(
          listing.markets
            .filter(({ summary }) => hasLastPrice(summary))
            .map(({ summary }) => cmcSummaryRecord(summary)),
        ),
    });
  }

  @Get('assets')
  @ApiOperation({
    summary:
      'Assets keyed by upper-case symbol: name, and where the assets file states them, UCID, withdraw and deposit terms, fees',
  })
  assets(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const { generation } = this.listing.markets();
    this.responder.send(request, reply, {
      key: 'cmc:assets',
      version: String(generation),
      cacheControl: CACHE.catalog,
      dataTime: this.listing.dataTime(),
      build: () =>
        JSON.stringify(
          Object.fromEntries(this.listing.assets().map((asset) => [asset.symbol, cmcAssetRecord(asset)])),
        ),
    });
  }

  @Get('ticker')
  @ApiOperation({
    summary:
      'Markets with a known last price, keyed by upper-case BASE_QUOTE: base and quote UCIDs when known, last price, 24-hour volumes, isFrozen (0 or 1)',
  })
  ticker(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const listing = this.listing.markets();
    this.responder.send(request, reply, {
      key: 'cmc:ticker',
      version: String(listing.generation),
      cacheControl: CACHE.live,
      dataTime: this.listing.dataTime(),
      build: () =>
        JSON.stringify(
          Object.fromEntries(
            listing.markets
              .filter(({ summary }) => hasLastPrice(summary))
              .map(({ summary }) => [
                cmcPair(summary),
                cmcTickerRecord(
                  summary,
                  this.listing.asset(summary.base)?.unifiedCryptoassetId,
                  this.listing.asset(summary.quote)?.unifiedCryptoassetId,
                ),
              ]),
          ),
        ),
    });
  }

  @Get('orderbook/:pair')
  @ApiOperation({
    summary: 'Level 2 book: bids descending, asks ascending, [price, amount]; timestamp in milliseconds',
  })
  @ApiParam(PAIR_PARAM)
  @ApiQuery({
    name: 'depth',
    required: false,
    description: '0 or absent: full book; N: N/2 levels per side (an odd N: (N - 1)/2)',
  })
  @ApiQuery({
    name: 'level',
    required: false,
    description:
      '1: best bid and ask only; 2 (default): every price level; 3: the same as 2, the finest book the exchange publishes (it aggregates by price)',
  })
  async orderbook(
    @Param('pair') pair: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
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

  @Get('trades/:pair')
  @ApiOperation({ summary: 'Every trade of the last 24 hours, newest first; type is the taker side' })
  @ApiParam(PAIR_PARAM)
  async trades(
    @Param('pair') pair: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const market = this.listing.market(pair);
    await this.responder.sendTrades(request, reply, market, `cmc:trades:${market.instrument}`, (window) =>
      toJson(window.trades.map(cmcTradeRecord)),
    );
  }
}
