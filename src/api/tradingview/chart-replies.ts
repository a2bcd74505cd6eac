import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { toJson } from '../../market/json-number';
import { ApiError } from '../http/api-error';
import type { ApiReply, ApiRequest } from '../http/api-http';
import { JSON_TYPE, ResponseCache } from '../http/response-cache';
import { sendCached } from '../http/send-cached';
import { CACHE } from '../views/responder';
import { ListingService } from '../views/listing-service';
import { ChartQueryError } from './chart-query';
import { chartErrorRecord } from './tradingview-records';

/**
 * How TradingView's endpoints and the UDF datafeed answer. A body is cached by its own bytes: the
 * same bars give the same bytes and ETag (and a 304 to `If-None-Match`) however they were read.
 * Errors are HTTP 200 with `{"s":"error","errmsg"}`, as both clients expect.
 */
@Injectable()
export class ChartReplies {
  private readonly cache = new ResponseCache(500);

  constructor(private readonly listing: ListingService) {}

  /** `record` as JSON (JsonNumbers as bare numbers), cached under `key`. */
  send(
    request: ApiRequest,
    reply: ApiReply,
    key: string,
    record: unknown,
    options: { cacheControl?: string; instruments?: readonly string[] } = {},
  ): void {
    const body = toJson(record);
    // Versioned by a digest of the bytes: a day of 1-minute bars is some 100 KB, kept once.
    const version = createHash('sha1').update(body).digest('base64');
    const cached = this.cache.get(key, version, () => ({ body }));
    sendCached(request, reply, cached, {
      cacheControl: options.cacheControl ?? CACHE.live,
      stale: this.listing.stale,
      dataTime: this.listing.dataTime(options.instruments),
    });
  }

  /** Runs `answer`; a bad request, or one the gateway cannot answer now, becomes the clients' error body. */
  async answer(reply: ApiReply, answer: () => void | Promise<void>): Promise<void> {
    try {
      await answer();
    } catch (error) {
      if (!(error instanceof ChartQueryError) && !(error instanceof ApiError)) throw error;
      reply.status(200);
      reply.header('cache-control', 'no-store');
      reply.header('content-type', JSON_TYPE);
      reply.send(Buffer.from(JSON.stringify(chartErrorRecord(error.message))));
    }
  }
}
