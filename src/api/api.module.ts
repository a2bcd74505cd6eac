import { Module } from '@nestjs/common';
import { ApiReadiness } from './api-readiness';
import { CmcController } from './cmc/cmc.controller';
import { CoingeckoController } from './coingecko/coingecko.controller';
import { Responder } from './views/responder';
import { ListingController } from './listing/listing.controller';
import { MirrorController } from './mirror/mirror.controller';
import { ExchangeCatalog } from './views/exchange-catalog';
import { ListingService } from './views/listing-service';
import { MarketViews } from './views/market-views';

/** The API role: every listing endpoint and the REST mirror, served from the stored state. */
@Module({
  controllers: [ListingController, CmcController, CoingeckoController, MirrorController],
  providers: [MarketViews, ListingService, ExchangeCatalog, Responder, ApiReadiness],
  exports: [MarketViews],
})
export class ApiModule {}
