import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CatalogFollower } from './catalog/catalog-follower';
import { IngestRecorder } from './ingest-recorder';
import { IngestSchedule } from './ingest-schedule';
import { IngestedInstruments } from './ingested-instruments';
import { InstrumentPipeline } from './instrument-pipeline';
import { OwnerRequestHandler } from './owner-requests/owner-request-handler';
import { OwnershipFollower } from './ownership/ownership-follower';
import { PipelineTicker } from './pipeline-ticker';
import { ShutdownSignal } from './shutdown-signal';
import { StateWriter } from './state-writer';
import { UpstreamConnections } from './upstream-connections';

/**
 * The ingest role: keeps a pipeline fed by the upstream feeds for every listed market this replica
 * owns, and writes what changes to the store under the owner's fence. The catalogue comes from the
 * store (refreshed by a scheduled job on any replica, announced by a change notice), ownership from
 * `InstrumentOwnership`, and the periodic work from the job scheduler. Starts in the background so
 * that the process serves health and metrics while the exchange is still being reached.
 */
@Injectable()
export class IngestService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(UpstreamConnections) private readonly upstream: UpstreamConnections,
    @Inject(StateWriter) private readonly writer: StateWriter,
    @Inject(IngestSchedule) private readonly schedule: IngestSchedule,
    @Inject(PipelineTicker) private readonly ticker: PipelineTicker,
    @Inject(CatalogFollower) private readonly catalog: CatalogFollower,
    @Inject(OwnershipFollower) private readonly ownership: OwnershipFollower,
    @Inject(OwnerRequestHandler) private readonly ownerRequests: OwnerRequestHandler,
    @Inject(IngestedInstruments) private readonly instruments: IngestedInstruments,
    @Inject(ShutdownSignal) private readonly shutdown: ShutdownSignal,
    @Inject(IngestRecorder) private readonly recorder: IngestRecorder,
  ) {}

  pipelines(): InstrumentPipeline[] {
    return this.instruments.pipelines();
  }

  onApplicationBootstrap(): void {
    this.recorder.start();
    this.upstream.start();
    this.writer.start();
    this.schedule.startRefresher();
    this.ticker.start();
    this.catalog.start((listed) => this.ownership.listedChanged(listed));
    this.ownership.start();
    this.ownerRequests.start();
    this.schedule.startJobs();
    void this.catalog.loadUntilItWorks();
  }

  /**
   * Before the store closes: no more jobs or leases taken, the last changes flushed, then the leases
   * released so that other replicas take over at once, then the upstream connections end, and the
   * recording with them.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.shutdown.abort();
    this.ticker.stop();
    this.catalog.stop();
    await this.schedule.stop();
    await this.ownerRequests.stop();
    await this.ownership.stop();
    await this.writer.stop();
    await this.ownership.release();
    await this.upstream.stop();
    await this.recorder.stop();
  }
}
