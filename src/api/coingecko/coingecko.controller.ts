import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { ApiReply, ApiRequest } from '../http/api-http';
import { toJson } from '../../market/json-number';
import { hasLastPrice } from '../../market/market-summary';
import { DirectHandlers } from '../http/direct-routes';
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

const TICKER_ID_QUERY = {
  name: 'ticker_id',
  required: true,
  example: 'BTC_USDT',
  description: 'base_quote in any letter case, with _ or -',
};

/** CoinGecko's spot endpoints: pairs, tickers, order book and historical trades. */
@ApiTags('coingecko')
@Controller('coingecko')
export class CoingeckoController {
  constructor(
    private readonly listing: ListingService,
    private readonly responder: Responder,
  ) {}

  /** The routes without parameters, for `serveDirectly` and the fast path. */
  directHandlers(): DirectHandlers {
    return new Map([
      ['/coingecko/pairs', (request, reply) => this.pairs(request, reply)],
      ['/coingecko/tickers', (request, reply) => this.tickers(request, reply)],
    ]);
  }

  @Get('pairs')
  @ApiOperation({ summary: 'Every listed market: ticker_id, base and target' })
  pairs(@Req() request: ApiRequest, @Res() reply: ApiReply): void {
    const listing = this.listing.markets();
    this.responder.send(request, reply, {
      key: 'coingecko:pairs',
      version: String(listing.generation),
      cacheControl: CACHE.catalog,
      dataTime: this.listing.dataTime(),
      build: () => JSON.stringify(listing.markets.map(({ summary }) => coingeckoPairRecord(summary))),
    });
  }

  @Get('tickers')
  @ApiOperation({
    summary: 'Every listed market with a known last price: 24-hour volumes, high and low, best bid and ask',
  })
  tickers(@Req() request: ApiRequest, @Res() reply: ApiReply): void {
    const listing = this.listing.markets();
    this.responder.send(request, reply, {
      key: 'coingecko:tickers',
      version: String(listing.generation),
      cacheControl: CACHE.live,
      dataTime: this.listing.dataTime(),
      build: () =>
        JSON.stringify(
          listing.markets
            .filter(({ summary }) => hasLastPrice(summary))
            .map(({ summary }) => coingeckoTickerRecord(summary)),
        ),
    });
  }

  @Get('orderbook')
  @ApiOperation({
    summary: 'Level 2 book: bids descending, asks ascending, [price, amount]; timestamp in milliseconds',
  })
  @ApiQuery(TICKER_ID_QUERY)
  @ApiQuery({
    name: 'depth',
    required: false,
    description: '0 or absent: full book; an even N: N/2 levels per side',
  })
  async orderbook(
    @Query() query: Record<string, unknown>,
    @Req() request: ApiRequest,
    @Res() reply: ApiReply,
  ): Promise<void> {
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

  @Get('historical_trades')
  @ApiOperation({
    summary: 'Trades of the last 24 hours, newest first, as { buy: [...], sell: [...] }',
  })
  @ApiQuery(TICKER_ID_QUERY)
  @ApiQuery({
    name: 'type',
    required: false,
    description: 'buy or sell: only that taker side (the other list is empty)',
  })
  @ApiQuery({ name: 'limit', required: false, description: 'the newest N matching trades; 0 or absent: all' })
  @ApiQuery({
    name: 'start_time',
    required: false,
    description: 'inclusive, Unix milliseconds (a value below 10^11 is read as seconds)',
  })
  @ApiQuery({
    name: 'end_time',
    required: false,
    description: 'inclusive, Unix milliseconds (a value below 10^11 is read as seconds)',
  })
  async historicalTrades(
    @Query() query: Record<string, unknown>,
    @Req() request: ApiRequest,
    @Res() reply: ApiReply,
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
        const { buy, sell } = selectHistoricalTrades(window.trades, selection);
        return toJson({ buy: buy.map(coingeckoTradeRecord), sell: sell.map(coingeckoTradeRecord) });
      },
    );
  }
}
