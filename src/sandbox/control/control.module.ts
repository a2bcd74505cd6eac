import { Module } from '@nestjs/common';
import { SandboxCoreModule } from '../sandbox-core.module';

/** Sandbox control: truth, fault switches and order flow. */
@Module({ imports: [SandboxCoreModule] })
export class ControlModule {}
