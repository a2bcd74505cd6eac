import { Inject, Injectable, Logger } from '@nestjs/common';
import { MarketInfo } from '../../market/market-info';
import { WriteFence } from '../../store/state-store';
import { CatalogFollower } from '../catalog/catalog-follower';
import { PipelineOpener } from '../pipeline-opener';
import { ShutdownSignal } from '../shutdown-signal';
import { INSTRUMENT_OWNERSHIP, InstrumentOwnership, LossReason } from './instrument-ownership';
import { OwnershipMetrics } from './ownership-metrics';

/** Ingests what this replica owns of the listed markets: a pipeline opened when acquired, closed when lost. */
@Injectable()
export class OwnershipFollower {
  private readonly logger = new Logger(OwnershipFollower.name);

  constructor(
    @Inject(INSTRUMENT_OWNERSHIP) private readonly ownership: InstrumentOwnership,
    @Inject(OwnershipMetrics) private readonly metrics: OwnershipMetrics,
    @Inject(CatalogFollower) private readonly catalog: CatalogFollower,
    @Inject(PipelineOpener) private readonly pipelines: PipelineOpener,
    @Inject(ShutdownSignal) private readonly shutdown: ShutdownSignal,
  ) {}

  start(): void {
    this.ownership.start({
      acquired: (instrument, fence) => this.acquired(instrument, fence),
      lost: (instrument, reason) => this.lost(instrument, reason),
    });
  }

  /** A newer catalogue: ownership follows its listed instruments, pipelines its gateway ids. */
  listedChanged(listed: ReadonlyMap<string, MarketInfo>): void {
    this.ownership.setListed([...listed.keys()]);
    this.pipelines.reopenWhereGatewayIdsChanged(listed);
  }

  /** No more leases taken or renewed; those held stay until `release`, after the last write. */
  async stop(): Promise<void> {
    await this.ownership.stop();
  }

  /** Lets other replicas take over at once, and closes the pipelines. */
  async release(): Promise<void> {
    await this.ownership.release();
    this.pipelines.closeAll();
  }

  private acquired(instrument: string, fence: WriteFence | undefined): void {
    const market = this.catalog.listed.get(instrument);
    if (!market || this.shutdown.stopping) return;
    this.metrics.acquired();
    if (fence) this.logger.log(`${instrument}: owned now (fencing token ${fence.token})`);
    this.pipelines.close(instrument);
    this.pipelines.open(market, fence);
  }

  private lost(instrument: string, reason: LossReason): void {
    this.metrics.lost(reason);
    if (reason === 'fenced' || reason === 'lost')
      this.logger.warn(
        `${instrument}: another replica may own it now (${reason}); this one stops ingesting it`,
      );
    else this.logger.log(`${instrument}: no longer owned (${reason})`);
    this.pipelines.close(instrument);
  }
}
