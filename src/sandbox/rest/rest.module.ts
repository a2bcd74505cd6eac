import { Module } from '@nestjs/common';
import { SandboxCoreModule } from '../sandbox-core.module';

/** The exchange's public REST: market info, depth and candles, with its rate limits. */
@Module({ imports: [SandboxCoreModule] })
export class SandboxRestModule {}
