import { Injectable } from '@nestjs/common';
import type { ApiReply, ApiRequest } from '../http/api-http';
import { CachedBody } from '../http/cached-body';
import { JSON_TYPE } from '../http/response-cache';
import { sendCached } from '../http/send-cached';
import { ListingService } from '../views/listing-service';
import { listingHealthBody } from './listing-health-records';
import { HealthReport } from '../../market/listing-health/health-figures';
import { ListingHealthService } from './listing-health-service';

/** `/listing-health`: each listed market as the aggregators will judge it. */
@Injectable()
export class ListingHealthEndpoints {
  constructor(
    private readonly health: ListingHealthService,
    private readonly listing: ListingService,
  ) {}

  async all(request: ApiRequest, reply: ApiReply): Promise<void> {
    this.listing.requireReady();
    this.send(request, reply, await this.health.report());
  }

  async one(name: string, request: ApiRequest, reply: ApiReply): Promise<void> {
    const market = this.listing.market(name);
    const report = await this.health.report();
    this.send(request, reply, {
      ...report,
      markets: report.markets.filter((health) => health.instrument === market.instrument),
    });
  }

  /** Every body is new (the ages move), so it is not kept: `no-store`, compressed on request all the same. */
  private send(request: ApiRequest, reply: ApiReply, report: HealthReport): void {
    const body = new CachedBody(
      Buffer.from(JSON.stringify(listingHealthBody(report, this.health))),
      JSON_TYPE,
    );
    const instruments = report.markets.map((health) => health.instrument);
    sendCached(request, reply, body, {
      cacheControl: 'no-store',
      stale: this.listing.stale,
      dataTime: this.listing.dataTime(instruments),
    });
  }
}
