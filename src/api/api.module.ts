import { Module } from '@nestjs/common';
import { Responder } from './http/responder';
import { ListingController } from './listing/listing.controller';
import { ListingService } from './views/listing-service';
import { MarketViews } from './views/market-views';

/** The API role: every listing endpoint, served from the stored state. */
@Module({
  controllers: [ListingController],
  providers: [MarketViews, ListingService, Responder],
  exports: [MarketViews],
})
export class ApiModule {}
