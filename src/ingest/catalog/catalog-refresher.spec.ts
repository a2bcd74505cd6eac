import { Logger } from '@nestjs/common';
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MarketInfo } from '../../market/market-info';
import { MemoryStateStore } from '../../store/memory-state-store';
import { parseExactJson } from '../../upstream/exact-json';
import { GatewayClient } from '../../upstream/gateway/gateway-client';
import { ExchangeInfo } from '../../upstream/rest/info-codec';
import { RestClient } from '../../upstream/rest/rest-client';
import { CatalogRefresher } from './catalog-refresher';

function market(instrument: string, minAmount = '1'): MarketInfo {
  const [baseAsset, quoteAsset] = instrument.split('_');
  return {
    instrument,
    baseAsset,
    quoteAsset,
    priceScale: 2,
    amountScale: 4,
    minAmount,
    priceDeviation: '0',
    makerFee: '0.001',
    takerFee: '0.002',
    hidden: false,
    status: 'Open',
    side: 'BuySell',
    isCustom: false,
    createdAt: '2024-01-01T00:00:00',
    updatedAt: '2024-01-01T00:00:00',
  };
}

const INSTRUMENTS =
  '[{"InstrumentId":7,"Symbol":"BTCUSDT","Product1Symbol":"BTC","Product2Symbol":"USDT"},' +
  '{"InstrumentId":8,"Symbol":"ETHUSDT","Product1Symbol":"ETH","Product2Symbol":"USDT"}]';
const PRODUCTS = '[{"ProductId":1,"Product":"BTC","ProductFullName":"Bitcoin (gateway)","DecimalPlaces":8}]';

describe('CatalogRefresher with failing or partial inputs', () => {
  let directory: string;
  let assetsPath: string;
  let info: () => Promise<ExchangeInfo>;
  let gatewayReply: (name: string) => Promise<unknown>;
  let refresher: CatalogRefresher;
  let store: MemoryStateStore;
  let warnings: string[];
  let notes: string[];
  let now: number;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'catalog-refresher-'));
    assetsPath = join(directory, 'assets.json');
    await writeFile(assetsPath, '{"BTC":{"name":"Bitcoin","unified_cryptoasset_id":1}}');
    info = async () => ({ serverTime: 0, markets: [market('btc_usdt'), market('eth_usdt')], skipped: [] });
    gatewayReply = async (name) => parseExactJson(name === 'GetInstruments' ? INSTRUMENTS : PRODUCTS);
    const rest = { info: () => info() } as unknown as RestClient;
    const gateway = {
      whenConnected: async () => undefined,
      request: (name: string) => gatewayReply(name),
    } as unknown as GatewayClient;
    now = 1_000_000;
    store = new MemoryStateStore();
    refresher = new CatalogRefresher(rest, gateway, store, assetsPath, 10_000, () => now++);
    warnings = [];
    notes = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message) => void warnings.push(String(message)));
    jest.spyOn(Logger.prototype, 'log').mockImplementation((message) => void notes.push(String(message)));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await rm(directory, { recursive: true, force: true });
  });

  const names = async () => (await refresher.refresh()).assets.map((asset) => [asset.symbol, asset.name]);
  const health = (input: string) => refresher.inputs.health().get(input as never);

  it('keeps the last good assets file while it is missing or invalid, and says so once per cause', async () => {
    expect(await names()).toEqual([
      ['BTC', 'Bitcoin'],
      ['ETH', 'ETH'],
      ['USDT', 'USDT'],
    ]);
    expect(health('assets_file')).toMatchObject({ ok: true });

    await unlink(assetsPath);
    for (let i = 0; i < 3; i++) expect((await names())[0]).toEqual(['BTC', 'Bitcoin']);
    expect(health('assets_file')).toMatchObject({
      ok: false,
      problem: `ASSETS_FILE ${assetsPath}: cannot be read: ENOENT`,
      lastGoodAt: expect.any(Number),
    });
    expect(warnings).toEqual([
      expect.stringMatching(
        /^catalogue input assets_file failed, keeping its version of .*: ASSETS_FILE .*: cannot be read: ENOENT$/,
      ),
    ]);

    await writeFile(assetsPath, '{"BTC":{"name":""}}');
    for (let i = 0; i < 3; i++) expect((await names())[0]).toEqual(['BTC', 'Bitcoin']);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/BTC\.name: must be non-empty text/);
    expect((await refresher.refresh()).assets[0]).toEqual({
      symbol: 'BTC',
      name: 'Bitcoin',
      unifiedCryptoassetId: 1,
    });

    await writeFile(assetsPath, '{"BTC":{"name":"Bitcoin again"}}');
    expect((await names())[0]).toEqual(['BTC', 'Bitcoin again']);
    expect(health('assets_file')).toMatchObject({ ok: true });
    expect(notes).toEqual(['catalogue input assets_file is read well again']);
    expect(warnings).toHaveLength(2);
  });

  it('keeps the previous record of a market sent malformed, and the list when it comes back empty', async () => {
    await refresher.refresh();
    info = async () => ({
      serverTime: 0,
      markets: [market('btc_usdt', '2')],
      skipped: [{ key: 'eth_usdt', problem: 'pairs.eth_usdt.minAmount: expected a decimal' }],
    });
    let catalog = await refresher.refresh();
    expect(catalog.markets.map((m) => [m.instrument, m.minAmount])).toEqual([
      ['btc_usdt', '2'],
      ['eth_usdt', '1'],
    ]);
    expect(health('exchange_info')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('the previous record kept of eth_usdt'),
    });

    info = async () => ({ serverTime: 0, markets: [], skipped: [] });
    catalog = await refresher.refresh();
    expect(catalog.markets.map((m) => m.instrument)).toEqual(['btc_usdt', 'eth_usdt']);
    expect(health('exchange_info')).toMatchObject({ ok: false, problem: 'the exchange lists no market' });

    info = async () => ({ serverTime: 0, markets: [market('btc_usdt')], skipped: [] });
    catalog = await refresher.refresh();
    expect(catalog.markets.map((m) => m.instrument)).toEqual(['btc_usdt']);
    expect(health('exchange_info')).toMatchObject({ ok: true });
  });

  it("takes the stored catalogue's markets as the previous list while it has none of its own", async () => {
    const stored = [market('btc_usdt'), market('eth_usdt', '3'), market('sol_usdt')];
    await store.writeCatalog({ markets: stored, assets: [], refreshedAt: 1 });
    info = async () => ({ serverTime: 0, markets: [], skipped: [] });
    let catalog = await refresher.refresh();
    expect(catalog.markets.map((m) => m.instrument)).toEqual(['btc_usdt', 'eth_usdt', 'sol_usdt']);
    expect(health('exchange_info')).toMatchObject({ ok: false, problem: 'the exchange lists no market' });

    info = async () => ({
      serverTime: 0,
      markets: [market('btc_usdt', '2')],
      skipped: [{ key: 'ETH_USDT', problem: 'pairs.ETH_USDT.minAmount: expected a decimal' }],
    });
    catalog = await refresher.refresh();
    expect(catalog.markets.map((m) => [m.instrument, m.minAmount])).toEqual([
      ['btc_usdt', '2'],
      ['eth_usdt', '3'],
    ]);
    expect(catalog.markets[1].gateway?.instrumentId).toBe(8);
  });

  it('publishes what the exchange lists when nothing is stored to keep', async () => {
    info = async () => ({
      serverTime: 0,
      markets: [market('btc_usdt')],
      skipped: [{ key: 'eth_usdt', problem: 'pairs.eth_usdt.minAmount: expected a decimal' }],
    });
    expect((await refresher.refresh()).markets.map((m) => m.instrument)).toEqual(['btc_usdt']);
  });

  it('fails the refresh when the market list cannot be read, naming the cause', async () => {
    info = async () => {
      throw new Error('HTTP 503');
    };
    await expect(refresher.refresh()).rejects.toThrow('HTTP 503');
    expect(health('exchange_info')).toMatchObject({ ok: false, problem: 'HTTP 503' });
  });

  const ids = async () => (await refresher.refresh()).markets.map((m) => m.gateway?.instrumentId);

  it("keeps the gateway's last records while it fails or lists nothing", async () => {
    expect(await ids()).toEqual([7, 8]);
    gatewayReply = async () => {
      throw new Error('timed out');
    };
    expect(await ids()).toEqual([7, 8]);
    expect(await ids()).toEqual([7, 8]);
    expect(health('gateway_instruments')).toMatchObject({ ok: false, problem: 'timed out' });
    gatewayReply = async () => parseExactJson('[]');
    expect(await ids()).toEqual([7, 8]);
    expect(health('gateway_instruments')).toMatchObject({
      ok: false,
      problem: 'the gateway lists no instrument',
    });
    expect(warnings.filter((line) => line.includes('gateway'))).toHaveLength(2);
  });

  it('takes the stored gateway ids while it has never reached the gateway, rather than none', async () => {
    gatewayReply = async () => {
      throw new Error('timed out');
    };
    expect(await ids()).toEqual([undefined, undefined]);
    const stored = { ...market('btc_usdt'), gateway: { instrumentId: 7, symbol: 'BTCUSDT' } };
    refresher.remember({ markets: [stored], assets: [], refreshedAt: 1 });
    expect(await ids()).toEqual([7, undefined]);
    gatewayReply = async (name) => parseExactJson(name === 'GetInstruments' ? INSTRUMENTS : PRODUCTS);
    expect(await ids()).toEqual([7, 8]);
  });
});
