import { Module } from '@nestjs/common';
import { SandboxRestModule } from '../rest/rest.module';
import { SandboxCoreModule } from '../sandbox-core.module';
import { FaultsController } from './faults.controller';
import { FlowController } from './flow.controller';
import { MarketStepController } from './market-step.controller';
import { StatsController } from './stats.controller';
import { TruthController } from './truth.controller';

/** Sandbox control: truth, fault switches, order flow, market steps and REST call statistics. */
@Module({
  imports: [SandboxCoreModule, SandboxRestModule],
  controllers: [TruthController, FaultsController, FlowController, MarketStepController, StatsController],
})
export class ControlModule {}
