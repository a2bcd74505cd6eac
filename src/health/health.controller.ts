import { Controller, Get, Header, HttpCode, Inject, Optional, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Registry } from 'prom-client';
import { IngestService } from '../ingest/ingest.service';
import { STATE_STORE } from '../store/store.module';
import { StateStore } from '../store/state-store';

/**
 * `live`: the process answers. `ready`: the store answers and, in a process that ingests, every listed
 * market's book is live. `metrics`: Prometheus text.
 */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(STATE_STORE) private readonly store: StateStore,
    @Optional() @Inject(IngestService) private readonly ingest?: IngestService,
  ) {}

  @Get('live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    const store = await this.store.health();
    const pipelines = this.ingest?.pipelines() ?? [];
    const notLive = pipelines
      .filter((pipeline) => pipeline.state !== 'live')
      .map((pipeline) => pipeline.instrument);
    const ingesting = this.ingest !== undefined;
    const ready = store.reachable && (!ingesting || (pipelines.length > 0 && notLive.length === 0));
    reply.status(ready ? 200 : 503);
    return {
      status: ready ? 'ready' : 'not ready',
      store,
      ...(ingesting ? { instruments: pipelines.length, notLive } : {}),
    };
  }
}

@Controller()
export class MetricsController {
  constructor(@Inject(Registry) private readonly registry: Registry) {}

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async metrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    reply.header('Content-Type', this.registry.contentType);
    return this.registry.metrics();
  }
}
