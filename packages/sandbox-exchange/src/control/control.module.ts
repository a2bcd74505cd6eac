import { Module } from '@nestjs/common';
import { SandboxRestModule } from '../rest/rest.module';
import { SandboxCoreModule } from '../sandbox-core.module';
import { FaultsController } from './faults.controller';
import { FlowController } from './flow.controller';
import { MarketStepController } from './market-step.controller';
import { StatsController } from './stats.controller';
import { TopLogController } from './top-log.controller';
import { TruthController } from './truth.controller';

/** Sandbox control: truth, fault switches, order flow, market steps, REST call statistics, top-of-book log. */
@Module({
  imports: [SandboxCoreModule, SandboxRestModule],
  controllers: [
    TruthController,
    FaultsController,
    FlowController,
    MarketStepController,
    StatsController,
    TopLogController,
  ],
})
export class ControlModule {}
