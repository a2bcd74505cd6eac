import { Injectable } from '@nestjs/common';
import { ChartBars } from '../charts/chart-bars';
import type { ApiReply, ApiRequest } from '../http/api-http';
import { echoedInput } from '../http/echoed-input';
import { CACHE } from '../views/responder';
import { ListingService } from '../views/listing-service';
import { ChartMarket, ChartMarkets } from '../tradingview/chart-markets';
import { barQuery, chartParam, ChartQueryError, readChartHistoryQuery } from '../tradingview/chart-query';
import { ChartReplies } from '../tradingview/chart-replies';
import { CHART_TYPE } from '../tradingview/tradingview-records';
import { udfConfigRecord, udfHistoryRecord, udfSearchRecord, udfSymbolRecord } from './udf-records';

export const UDF_SEARCH_LIMIT = 30;
export const UDF_MAX_SEARCH_LIMIT = 100;

/**
 * The Charting Library's UDF datafeed: its configuration, symbols, search, bars (`to` exclusive)
 * and the server time.
 */
@Injectable()
export class UdfEndpoints {
  constructor(
    private readonly markets: ChartMarkets,
    private readonly bars: ChartBars,
    private readonly listing: ListingService,
    private readonly replies: ChartReplies,
  ) {}

  config(request: ApiRequest, reply: ApiReply): Promise<void> {
    return this.replies.answer(reply, () => {
      this.listing.requireReady();
      this.replies.send(request, reply, 'udf:config', udfConfigRecord(this.markets.exchange), {
        cacheControl: CACHE.catalog,
      });
    });
  }

  symbols(query: Record<string, unknown>, request: ApiRequest, reply: ApiReply): Promise<void> {
    return this.replies.answer(reply, () => {
      const entry = this.symbol(query);
      this.replies.send(
        request,
        reply,
        `udf:symbols:${entry.market.instrument}`,
        udfSymbolRecord(entry, this.markets.exchange, this.assetName),
        { cacheControl: CACHE.catalog, instruments: [entry.market.instrument] },
      );
    });
  }

  search(query: Record<string, unknown>, request: ApiRequest, reply: ApiReply): Promise<void> {
    return this.replies.answer(reply, () => {
      const text = (chartParam(query, 'query') ?? '').toUpperCase();
      const type = chartParam(query, 'type');
      const exchange = chartParam(query, 'exchange');
      const limit = searchLimit(chartParam(query, 'limit'));
      const wanted =
        (type === undefined || type === CHART_TYPE) &&
        (exchange === undefined || exchange.toUpperCase() === this.markets.exchange);
      const found = wanted
        ? this.markets
            .all()
            .markets.filter((entry) => matches(entry, text, this.assetName))
            .slice(0, limit)
        : [];
      this.replies.send(
        request,
        reply,
        `udf:search:${text}:${type ?? ''}:${exchange ?? ''}:${limit}`,
        found.map((entry) => udfSearchRecord(entry, this.markets.exchange, this.assetName)),
        { cacheControl: CACHE.catalog },
      );
    });
  }

  history(query: Record<string, unknown>, request: ApiRequest, reply: ApiReply): Promise<void> {
    return this.replies.answer(reply, async () => {
      const history = readChartHistoryQuery(query, (name) => this.markets.find(withoutExchange(name)));
      const { market } = history.market;
      const answer = await this.bars.bars(market, history.resolution, barQuery(history, false));
      this.replies.send(
        request,
        reply,
        `udf:history:${market.instrument}:${history.resolution.name}:${history.from}:${history.to}:${history.countback ?? ''}`,
        udfHistoryRecord(history.market, answer),
        { instruments: [market.instrument] },
      );
    });
  }

  /** The server's clock in Unix seconds, as plain text; never cached. */
  time(reply: ApiReply): void {
    reply.header('cache-control', 'no-store');
    reply.header('content-type', 'text/plain; charset=utf-8');
    reply.send(Buffer.from(String(Math.floor(Date.now() / 1000))));
  }

  private readonly assetName = (symbol: string) => this.listing.assetName(symbol);

  private symbol(query: Record<string, unknown>): ChartMarket {
    const given = chartParam(query, 'symbol');
    if (given === undefined) throw new ChartQueryError('symbol is required');
    const entry = this.markets.find(withoutExchange(given));
    if (!entry) throw new ChartQueryError(`unknown symbol ${echoedInput(given)}`);
    return entry;
  }
}

/** `EXCHANGE:BTCUSDT`, the library's full name, names `BTCUSDT`. */
function withoutExchange(name: string): string {
  const colon = name.lastIndexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function matches(entry: ChartMarket, text: string, assetName: (symbol: string) => string): boolean {
  if (text === '') return true;
  const { market } = entry;
  return [
    entry.symbol,
    market.instrument.toUpperCase(),
    assetName(market.baseAsset.toUpperCase()).toUpperCase(),
    assetName(market.quoteAsset.toUpperCase()).toUpperCase(),
  ].some((name) => name.includes(text));
}

function searchLimit(given: string | undefined): number {
  if (given === undefined) return UDF_SEARCH_LIMIT;
  if (!/^\d{1,4}$/.test(given) || Number(given) < 1 || Number(given) > UDF_MAX_SEARCH_LIMIT)
    throw new ChartQueryError(
      `limit must be an integer from 1 to ${UDF_MAX_SEARCH_LIMIT}, got ${echoedInput(given)}`,
    );
  return Number(given);
}
