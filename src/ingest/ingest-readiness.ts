import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Readiness, ReadinessReport } from '../health/readiness';
import { RequestBudget } from '../upstream/rest/request-budget';
import { REQUEST_BUDGET, UPSTREAM_SETTINGS } from '../upstream/upstream.module';
import { UpstreamSettings } from '../upstream/upstream-settings';
import { CandleSource } from './candle-source';
import { CatalogFollower } from './catalog/catalog-follower';
import { CatalogInputHealth, CatalogInputName } from './catalog/catalog-inputs';
import { CatalogRefresher } from './catalog/catalog-refresher';
import { IngestedInstruments } from './ingested-instruments';
import { INSTRUMENT_OWNERSHIP, InstrumentOwnership } from './ownership/instrument-ownership';
import { UpstreamConnections } from './upstream-connections';

/**
 * The ingest's part of `/health/ready`: ready once ownership has settled and every book this replica
 * keeps is live; the rest of the report is for operators.
 */
@Injectable()
export class IngestReadiness implements OnModuleInit {
  constructor(
    @Inject(Readiness) private readonly readiness: Readiness,
    @Inject(INSTRUMENT_OWNERSHIP) private readonly ownership: InstrumentOwnership,
    @Inject(IngestedInstruments) private readonly instruments: IngestedInstruments,
    @Inject(CatalogFollower) private readonly catalog: CatalogFollower,
    @Inject(CatalogRefresher) private readonly refresher: CatalogRefresher,
    @Inject(CandleSource) private readonly candles: CandleSource,
    @Inject(UpstreamConnections) private readonly upstream: UpstreamConnections,
    @Inject(REQUEST_BUDGET) private readonly budget: RequestBudget,
    @Inject(UPSTREAM_SETTINGS) private readonly settings: UpstreamSettings,
  ) {}

  onModuleInit(): void {
    this.readiness.register({ name: 'ingest', check: () => this.check() });
  }

  async check(): Promise<ReadinessReport> {
    const restBudget = await this.budget.usage();
    const status = this.ownership.status();
    const pipelines = this.instruments.pipelines();
    const notLive = pipelines
      .filter((pipeline) => pipeline.state !== 'live')
      .map((pipeline) => pipeline.instrument);
    return {
      // A replica may own nothing when there are more replicas than instruments.
      ready: status.settled && notLive.length === 0,
      listed: this.catalog.listed.size,
      instruments: pipelines.length,
      notLive,
      replicas: status.replicas,
      // Cluster-wide, for operators: listed instruments nobody wrote at the last look.
      unowned: status.unowned ?? null,
      upstream: this.upstream.describe(),
      restBudget,
      // Not part of `ready`: with an input failing the catalogue keeps its last good version.
      catalogInputs: describeInputs(this.refresher.inputs.health()),
      candlesUnavailable: this.candles.unavailable(),
      ...(this.settings.sandbox ? { sandbox: true } : {}),
    };
  }
}

function describeInputs(
  inputs: ReadonlyMap<CatalogInputName, CatalogInputHealth>,
): Record<string, Record<string, unknown>> {
  const iso = (time: number | undefined) => (time === undefined ? undefined : new Date(time).toISOString());
  return Object.fromEntries(
    [...inputs].map(([input, health]) => [
      input,
      health.ok
        ? { ok: true, lastGoodAt: iso(health.lastGoodAt) }
        : {
            ok: false,
            problem: health.problem,
            failingSince: iso(health.failingSince),
            keeping: health.lastGoodAt === undefined ? 'nothing' : `version of ${iso(health.lastGoodAt)}`,
          },
    ]),
  );
}
