import { Controller, Get, Inject } from '@nestjs/common';
import { RestCallStats, RestFamilyStats } from '../rest/rest-call-stats';
import { RestFamily } from '../rest/rest-family';

@Controller('sandbox/stats')
export class StatsController {
  constructor(@Inject(RestCallStats) private readonly calls: RestCallStats) {}

  /** REST calls per path family since the start: served, refused by the rate limit, failed by a fault. */
  @Get()
  perFamily(): Record<RestFamily, RestFamilyStats> {
    return this.calls.snapshot();
  }
}
