import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import { Registry } from 'prom-client';
import { AppConfig, usesRedis } from '../config/app-config';
import { Tuning } from '../config/tuning';
import { bullmqPrefix } from '../store/redis-connection';
import { JobConnections } from './bullmq-connection';
import { BullMqJobScheduler } from './bullmq-job-scheduler';
import { InProcessJobScheduler } from './in-process-job-scheduler';
import { JobMetrics } from './job-metrics';
import { JOB_SCHEDULER, JobScheduler } from './scheduled-job';

/**
 * The job scheduler of an ingesting role: on BullMQ when state is in Redis, so that the replicas
 * share one schedule, and in-process on @nestjs/schedule otherwise. Whoever owns the jobs starts and
 * stops it.
 */
@Module({})
export class SchedulerModule {
  static forRoot(config: AppConfig): DynamicModule {
    const metrics = {
      provide: JobMetrics,
      inject: [Registry],
      useFactory: (registry: Registry) => new JobMetrics(registry),
    };
    if (!usesRedis(config)) {
      return {
        module: SchedulerModule,
        imports: [ScheduleModule.forRoot()],
        providers: [
          metrics,
          {
            provide: JOB_SCHEDULER,
            inject: [SchedulerRegistry, JobMetrics],
            useFactory: (registry: SchedulerRegistry, jobMetrics: JobMetrics): JobScheduler =>
              new InProcessJobScheduler(registry, jobMetrics),
          },
        ],
        exports: [JOB_SCHEDULER],
      };
    }
    return {
      module: SchedulerModule,
      providers: [
        metrics,
        {
          provide: JOB_SCHEDULER,
          inject: [JobMetrics, Tuning],
          useFactory: (jobMetrics: JobMetrics, tuning: Tuning): JobScheduler =>
            new BullMqJobScheduler({
              connections: new JobConnections(config, tuning.redisCommandTimeoutMs),
              prefix: bullmqPrefix(config),
              metrics: jobMetrics,
            }),
        },
      ],
      exports: [JOB_SCHEDULER],
    };
  }
}
