import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { SandboxCoreModule } from '../sandbox-core.module';
import { ExchangeErrorFilter } from './exchange-error.filter';
import { MarketDataController } from './market-data.controller';
import { MarketInfoController } from './market-info.controller';
import { RestAdmission } from './rest-admission';
import { RestCallStats } from './rest-call-stats';

/** The exchange's public REST: market info, depth and candles, with its rate limits. */
@Module({
  imports: [SandboxCoreModule],
  controllers: [MarketInfoController, MarketDataController],
  providers: [
    { provide: RestCallStats, useFactory: () => new RestCallStats() },
    RestAdmission,
    { provide: APP_FILTER, useClass: ExchangeErrorFilter },
  ],
  exports: [RestCallStats],
})
export class SandboxRestModule {}
