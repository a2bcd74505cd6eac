import { Counter, Gauge, Registry } from 'prom-client';
import { InstrumentOwnership, LossReason } from './instrument-ownership';

/** Which instruments this replica owns, how many replicas share them, and whether any is left without. */
export class OwnershipMetrics {
  private readonly acquisitions: Counter;
  private readonly losses: Counter<'reason'>;

  constructor(registry: Registry, ownership: InstrumentOwnership) {
    new Gauge({
      name: 'mdg_owned_instruments',
      help: 'Instruments this ingest replica owns (holds the lease of) and writes.',
      registers: [registry],
      collect() {
        this.set(ownership.status().owned);
      },
    });
    new Gauge({
      name: 'mdg_ingest_replicas',
      help: 'Live ingest replicas sharing the instruments out, as this one last saw them.',
      registers: [registry],
      collect() {
        this.set(ownership.status().replicas);
      },
    });
    new Gauge({
      name: 'mdg_unowned_instruments',
      help: 'Listed instruments that no ingest replica owned at the last look (cluster-wide; 0 when healthy).',
      registers: [registry],
      collect() {
        const { unowned } = ownership.status();
        if (unowned === undefined) this.reset();
        else this.set(unowned);
      },
    });
    this.acquisitions = new Counter({
      name: 'mdg_instrument_acquisitions_total',
      help: 'Instruments this replica took ownership of.',
      registers: [registry],
    });
    this.losses = new Counter({
      name: 'mdg_instrument_losses_total',
      help: 'Instruments this replica stopped owning, by reason (unlisted, rebalanced, lost, fenced).',
      labelNames: ['reason'],
      registers: [registry],
    });
  }

  acquired(): void {
    this.acquisitions.inc();
  }

  lost(reason: LossReason): void {
    this.losses.inc({ reason });
  }
}
