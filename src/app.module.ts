import { DynamicModule, Module } from '@nestjs/common';
import { ApiModule } from './api/api.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { Tuning } from './config/tuning';
import { ingests, servesApi } from './config/role';
import { HealthModule } from './health/health.module';
import { ObservabilityModule } from './health/observability.module';
import { IngestModule } from './ingest/ingest.module';
import { StoreModule } from './store/store.module';
import { UpstreamModule } from './upstream/upstream.module';
import { UpstreamSettings } from './upstream/upstream-settings';

/**
 * The gateway application for its role: `ingest` and `all` ingest from `upstream` and run the
 * scheduled jobs, `api` and `all` serve the listing.
 */
@Module({})
export class AppModule {
  static forRole(config: AppConfig, upstream?: UpstreamSettings, tuning = new Tuning()): DynamicModule {
    const ingestModules = ingests(config.ROLE)
      ? [UpstreamModule.forRoot(requireUpstream(upstream)), IngestModule.forRoot(config)]
      : [];
    const apiModules = servesApi(config.ROLE) ? [ApiModule] : [];
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, tuning),
        ObservabilityModule,
        StoreModule.forRoot(),
        ...ingestModules,
        ...apiModules,
        HealthModule,
      ],
    };
  }
}

function requireUpstream(upstream: UpstreamSettings | undefined): UpstreamSettings {
  if (!upstream) throw new Error('an ingesting role needs the upstream settings');
  return upstream;
}
