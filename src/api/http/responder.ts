import { Injectable } from '@nestjs/common';
import { ListingService } from '../views/listing-service';
import type { ApiReply, ApiRequest } from './api-http';
import { BuiltResponse, ResponseCache } from './response-cache';
import { sendCached } from './send-cached';

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
}
