import { Inject, Injectable } from '@nestjs/common';
import { Tuning } from '../config/tuning';
import { JOB_SCHEDULER, JobScheduler } from '../scheduler/scheduled-job';
import { StateStore } from '../store/state-store';
import { STATE_STORE } from '../store/store.module';
import { CatalogRefresher } from './catalog/catalog-refresher';
import { ingestJobs } from './ingest-jobs';
import { OWNER_REQUESTS, OwnerRequests } from './owner-requests/owner-request';
import { ShutdownSignal } from './shutdown-signal';

/** The ingest's scheduled jobs (see `ingestJobs`), and the catalogue refresher they run. */
@Injectable()
export class IngestSchedule {
  constructor(
    @Inject(Tuning) private readonly tuning: Tuning,
    @Inject(JOB_SCHEDULER) private readonly jobs: JobScheduler,
    @Inject(STATE_STORE) private readonly store: StateStore,
    @Inject(CatalogRefresher) private readonly catalog: CatalogRefresher,
    @Inject(OWNER_REQUESTS) private readonly ownerRequests: OwnerRequests,
    @Inject(ShutdownSignal) private readonly shutdown: ShutdownSignal,
  ) {}

  /** The refresher keeps its catalogue stored (also through store failures) from now on. */
  startRefresher(): void {
    this.catalog.start();
  }

  startJobs(): void {
    this.jobs.start(
      ingestJobs(this.tuning, {
        refreshCatalog: async () => {
          await this.catalog.refresh(this.shutdown.signal);
        },
        markets: async () => (await this.store.readCatalog())?.markets ?? [],
        askOwners: (request) => this.ownerRequests.send(request),
        trimTrades: (instruments, before) => this.store.trimTrades(instruments, before),
        now: () => Date.now(),
      }),
    );
  }

  async stop(): Promise<void> {
    this.catalog.stop();
    await this.jobs.stop();
  }
}
