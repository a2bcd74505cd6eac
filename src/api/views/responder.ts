import { Injectable } from '@nestjs/common';
import { MarketInfo } from '../../market/market-info';
import { BookView } from '../../store/state-store';
import type { ApiReply, ApiRequest } from '../http/api-http';
import { BuiltResponse, ResponseCache } from '../http/response-cache';
import { sendCached } from '../http/send-cached';
import { Listing, ListingService, WindowTrades } from './listing-service';

/** `Cache-Control` of the endpoints, in line with how often their data changes. */
export const CACHE = {
  /** Books, tickers, trades: change every second or faster. */
  live: 'public, max-age=1',
  /** The market list and assets: change with the catalogue, about once a minute at most. */
  catalog: 'public, max-age=60',
} as const;

export interface Respond {
  /** Identifies the endpoint and its parameters. */
  readonly key: string;
  /** Identifies the state the body is built from: the same version gives the same bytes. */
  readonly version: string;
  readonly build: () => BuiltResponse | string;
  readonly cacheControl: string;
  readonly dataTime: number;
}

/** Answers from the response cache: builds a body once per state version and sends it as cached bytes. */
@Injectable()
export class Responder {
  private readonly cache = new ResponseCache();

  constructor(private readonly listing: ListingService) {}

  send(request: ApiRequest, reply: ApiReply, respond: Respond): void {
    const cached = this.cache.get(respond.key, respond.version, () => {
      const built = respond.build();
      return typeof built === 'string' ? { body: built } : built;
    });
    sendCached(request, reply, cached, {
      cacheControl: respond.cacheControl,
      stale: this.listing.stale,
      dataTime: respond.dataTime,
    });
  }

  /** A body of the whole listing (every market or asset), cached under `key` per listing generation. */
  sendListing(
    request: ApiRequest,
    reply: ApiReply,
    key: string,
    cacheControl: string,
    build: (listing: Listing) => string,
  ): void {
    const listing = this.listing.markets();
    this.send(request, reply, {
      key,
      version: String(listing.generation),
      cacheControl,
      dataTime: this.listing.dataTime(),
      build: () => build(listing),
    });
  }

  /** `market`'s book as `build` renders it, cached under `key` per book version. */
  async sendBook(
    request: ApiRequest,
    reply: ApiReply,
    market: MarketInfo,
    key: string,
    build: (book: BookView) => string,
    /** Levels of each side the body shows, 0 for all: one comes from the instrument's head. */
    perSide = 0,
  ): Promise<void> {
    const book = await this.listing.book(market, perSide);
    this.send(request, reply, {
      key,
      version: `${book.version}:${book.updatedAt}`,
      cacheControl: CACHE.live,
      dataTime: this.listing.dataTime([market.instrument]),
      build: () => build(book),
    });
  }

  /** `market`'s trades of the last 24 hours as `build` renders them, cached under `key` per window version. */
  async sendTrades(
    request: ApiRequest,
    reply: ApiReply,
    market: MarketInfo,
    key: string,
    build: (window: WindowTrades) => string,
  ): Promise<void> {
    const window = await this.listing.trades(market, Date.now());
    this.send(request, reply, {
      key,
      version: window.version,
      cacheControl: CACHE.live,
      dataTime: this.listing.dataTime([market.instrument]),
      build: () => build(window),
    });
  }
}
