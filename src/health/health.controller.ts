import { Controller, Get, Header, HttpCode, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Registry } from 'prom-client';
import { STATE_STORE } from '../store/store.module';
import { StateStore } from '../store/state-store';
import { Readiness } from './readiness';
import { readinessSummary } from './readiness-report';

/**
 * `live`: the process answers. `ready`: the store answers and every check of the process's roles
 * passes (ingest: every listed book live; api: data loaded and fresh). `metrics`: Prometheus text.
 */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(STATE_STORE) private readonly store: StateStore,
    private readonly readiness: Readiness,
  ) {}

  @Get('live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Header('Cache-Control', 'no-store')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    const { ready, sandbox, store, checks } = await readinessSummary(this.store, this.readiness);
    reply.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not ready', ...(sandbox ? { sandbox: true } : {}), store, ...checks };
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
