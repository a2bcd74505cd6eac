import { Logger } from '@nestjs/common';
import { Tuning } from '../../config/tuning';
import { MarketInfo } from '../../market/market-info';
import { JobScheduler } from '../../scheduler/scheduled-job';
import { MemoryStateStore } from '../../store/memory-state-store';
import { ShutdownSignal } from '../shutdown-signal';
import { CatalogFollower } from './catalog-follower';

function market(instrument: string, hidden = false): MarketInfo {
  const [baseAsset, quoteAsset] = instrument.split('_');
  return {
    instrument,
    baseAsset,
    quoteAsset,
    priceScale: 2,
    amountScale: 4,
    minAmount: '1',
    priceDeviation: '0',
    makerFee: '0.001',
    takerFee: '0.002',
    hidden,
    status: 'Open',
    side: 'BuySell',
    isCustom: false,
    createdAt: '2024-01-01T00:00:00',
    updatedAt: '2024-01-01T00:00:00',
  };
}

const jobs: JobScheduler = {
  start: () => undefined,
  runSoon: async () => undefined,
  stop: async () => undefined,
};
const intervals = new Tuning();

describe('CatalogFollower', () => {
  let store: MemoryStateStore;
  let shutdown: ShutdownSignal;
  let follower: CatalogFollower;
  let heard: string[][];
  let remembered: number[];

  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    store = new MemoryStateStore();
    shutdown = new ShutdownSignal();
    remembered = [];
    follower = new CatalogFollower(store, jobs, intervals, shutdown, {
      remember: (catalog) => remembered.push(catalog.refreshedAt),
    });
    heard = [];
    follower.start((listed) => heard.push([...listed.keys()]));
  });

  afterEach(() => {
    follower.stop();
    jest.restoreAllMocks();
  });

  it('lists the markets that are not hidden', async () => {
    await store.writeCatalog({
      markets: [market('btc_usdt'), market('eth_usdt', true)],
      assets: [],
      refreshedAt: 1,
    });
    await follower.load();

    expect([...follower.listed.keys()]).toEqual(['btc_usdt']);
    expect(heard.at(-1)).toEqual(['btc_usdt']);
  });

  it('never replaces a newer catalogue with an older one', async () => {
    await store.writeCatalog({
      markets: [market('btc_usdt'), market('eth_usdt')],
      assets: [],
      refreshedAt: 2,
    });
    await follower.load();
    await store.writeCatalog({ markets: [market('btc_usdt')], assets: [], refreshedAt: 1 });
    await follower.load();

    expect([...follower.listed.keys()]).toEqual(['btc_usdt', 'eth_usdt']);
    expect(heard).toEqual([['btc_usdt', 'eth_usdt']]);
  });

  it('hands each newer catalogue loaded to the refresher, to put back if the store loses it', async () => {
    await store.writeCatalog({ markets: [market('btc_usdt')], assets: [], refreshedAt: 2 });
    await follower.load();
    await store.writeCatalog({ markets: [market('btc_usdt')], assets: [], refreshedAt: 1 });
    await follower.load();

    expect(remembered).toEqual([2]);
  });

  it('loads the catalogue a change notice announces', async () => {
    await store.writeCatalog({ markets: [market('btc_usdt')], assets: [], refreshedAt: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));

    expect(heard).toEqual([['btc_usdt']]);
  });

  it('keeps the last catalogue when the store cannot be read', async () => {
    await store.writeCatalog({ markets: [market('btc_usdt')], assets: [], refreshedAt: 1 });
    await follower.load();
    jest.spyOn(store, 'readCatalog').mockRejectedValue(new Error('store down'));
    await follower.load();

    expect([...follower.listed.keys()]).toEqual(['btc_usdt']);
  });

  it('loads nothing once shutdown has begun', async () => {
    shutdown.abort();
    await store.writeCatalog({ markets: [market('btc_usdt')], assets: [], refreshedAt: 1 });
    await follower.load();

    expect(follower.listed.size).toBe(0);
    expect(heard).toEqual([]);
  });
});
