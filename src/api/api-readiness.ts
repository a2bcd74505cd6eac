import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Tuning } from '../config/tuning';
import { Readiness } from '../health/readiness';
import { ListingService } from './views/listing-service';
import { MarketViews } from './views/market-views';

/** The API is ready once it has a catalogue and its data was confirmed current within `staleAfterMs` (tuning). */
@Injectable()
export class ApiReadiness implements OnModuleInit {
  constructor(
    @Inject(Tuning) private readonly tuning: Tuning,
    private readonly readiness: Readiness,
    private readonly views: MarketViews,
    private readonly listing: ListingService,
  ) {}

  onModuleInit(): void {
    this.readiness.register({
      name: 'api',
      check: () => {
        if (!this.views.ready) return { ready: false, reason: 'no market data loaded yet' };
        const dataTime = this.listing.dataTime();
        const dataAgeMs = dataTime > 0 ? Date.now() - dataTime : undefined;
        const fresh = dataAgeMs !== undefined && dataAgeMs <= this.tuning.staleAfterMs;
        return {
          ready: fresh && !this.views.stale,
          markets: this.views.markets().length,
          dataAgeMs: dataAgeMs ?? null,
          storeReadable: !this.views.stale,
          ...(this.views.sandbox ? { sandbox: true } : {}),
        };
      },
    });
  }
}
