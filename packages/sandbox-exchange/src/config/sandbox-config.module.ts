import { DynamicModule, Global, Module } from '@nestjs/common';
import { SandboxConfig } from './sandbox-config';
import { SandboxTuning } from './sandbox-tuning';

/** Makes the sandbox's settings injectable everywhere as `SandboxConfig`, its tuning as `SandboxTuning`. */
@Global()
@Module({})
export class SandboxConfigModule {
  static forRoot(config: SandboxConfig, tuning: SandboxTuning = new SandboxTuning()): DynamicModule {
    return {
      module: SandboxConfigModule,
      providers: [
        { provide: SandboxConfig, useValue: config },
        { provide: SandboxTuning, useValue: tuning },
      ],
      exports: [SandboxConfig, SandboxTuning],
    };
  }
}
