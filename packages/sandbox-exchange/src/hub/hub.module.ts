import { Module } from '@nestjs/common';
import { SandboxCoreModule } from '../sandbox-core.module';
import { HubFaults } from './hub-faults';
import { HubNegotiation } from './hub-negotiation';
import { HubServer } from './hub-server';
import { MarketDataHub } from './market-data-hub';
import { NegotiateController } from './negotiate.controller';

/** The SignalR market-data hub at /marketdata/info. */
@Module({
  imports: [SandboxCoreModule],
  controllers: [NegotiateController],
  providers: [
    { provide: HubNegotiation, useFactory: () => new HubNegotiation() },
    MarketDataHub,
    HubServer,
    HubFaults,
  ],
  exports: [HubServer, MarketDataHub],
})
export class HubModule {}
