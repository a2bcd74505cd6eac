import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config';
import { Tuning } from './tuning';

/** Makes the validated configuration injectable everywhere as `AppConfig`, and the tuning as `Tuning`. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, tuning: Tuning = new Tuning()): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: Tuning, useValue: tuning },
      ],
      exports: [AppConfig, Tuning],
    };
  }
}
