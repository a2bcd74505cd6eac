import { Module } from '@nestjs/common';
import { SandboxCoreModule } from '../sandbox-core.module';

/** The SignalR market-data hub at /marketdata/info. */
@Module({ imports: [SandboxCoreModule] })
export class HubModule {}
