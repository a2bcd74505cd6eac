import { DynamicModule, Global, Module } from '@nestjs/common';
import { SandboxConfig } from './sandbox-config';

/** Makes the sandbox's settings injectable everywhere as `SandboxConfig`. */
@Global()
@Module({})
export class SandboxConfigModule {
  static forRoot(config: SandboxConfig): DynamicModule {
    return {
      module: SandboxConfigModule,
      providers: [{ provide: SandboxConfig, useValue: config }],
      exports: [SandboxConfig],
    };
  }
}
