import { Logger } from '@nestjs/common';
import { Registry } from 'prom-client';
import { MarketInfo } from '../../market/market-info';
import { CatalogFollower } from '../catalog/catalog-follower';
import { PipelineOpener } from '../pipeline-opener';
import { ShutdownSignal } from '../shutdown-signal';
import { LocalOwnership } from './local-ownership';
import { OwnershipFollower } from './ownership-follower';
import { OwnershipMetrics } from './ownership-metrics';

describe('OwnershipFollower', () => {
  let listed: Map<string, MarketInfo>;
  let calls: string[];
  let shutdown: ShutdownSignal;
  let ownership: LocalOwnership;
  let follower: OwnershipFollower;

  function list(...instruments: string[]): void {
    listed = new Map(instruments.map((instrument) => [instrument, { instrument } as MarketInfo]));
    follower.listedChanged(listed);
  }

  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    listed = new Map();
    calls = [];
    shutdown = new ShutdownSignal();
    ownership = new LocalOwnership();
    const pipelines = {
      open: (market: MarketInfo) => void calls.push(`open ${market.instrument}`),
      close: (instrument: string) => void calls.push(`close ${instrument}`),
      closeAll: () => void calls.push('close all'),
      reopenWhereGatewayIdsChanged: () => undefined,
    } as unknown as PipelineOpener;
    const catalog = {
      get listed() {
        return listed;
      },
    } as unknown as CatalogFollower;
    const metrics = new OwnershipMetrics(new Registry(), ownership);
    follower = new OwnershipFollower(ownership, metrics, catalog, pipelines, shutdown);
    follower.start();
  });

  afterEach(() => jest.restoreAllMocks());

  it('opens a pipeline for each listed instrument acquired, afresh', () => {
    list('btc_usdt');

    expect(calls).toEqual(['close btc_usdt', 'open btc_usdt']);
  });

  it('closes the pipeline of an instrument lost', () => {
    list('btc_usdt');
    list();

    expect(calls.at(-1)).toBe('close btc_usdt');
  });

  it('opens nothing once shutdown has begun', () => {
    shutdown.abort();
    list('btc_usdt');

    expect(calls).toEqual([]);
  });

  it('closes the pipelines after the leases are released', async () => {
    list('btc_usdt');
    await follower.stop();
    await follower.release();

    expect(calls.at(-1)).toBe('close all');
    expect(ownership.status().owned).toBe(0);
  });
});
