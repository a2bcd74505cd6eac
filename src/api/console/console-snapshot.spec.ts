import { MarketHealth } from '../../market/listing-health/health-figures';
import { ConsoleSnapshotInput, consoleSnapshot } from './console-snapshot';

const health = (instrument: string): MarketHealth =>
  ({
    instrument,
    base: instrument.split('_')[0].toUpperCase(),
    quote: instrument.split('_')[1].toUpperCase(),
    status: 'Open',
    syncState: 'resync',
    bookVersion: 7,
    bookAgeMs: 40,
    lastTradeAgeMs: 900,
    bestBid: '1.00',
    bestAsk: '1.02',
    spreadPercentage: '1.98',
    quoteVolume24h: '10.00',
    trades24h: 3,
    usd: { depthPlus2Percent: '5.00', depthMinus2Percent: '6.00', quoteVolume24h: '10.00' },
    flags: [{ code: 'thin_depth', message: '...' }],
  }) as unknown as MarketHealth;

const input = (overrides: Partial<ConsoleSnapshotInput>): ConsoleSnapshotInput => ({
  now: 10_000,
  staleAfterMs: 60_000,
  markets: [health('btc_usdt'), health('eth_usdt')],
  heads: () => undefined,
  lastPrice: (instrument) => (instrument === 'btc_usdt' ? '65000.00' : null),
  storeReachable: true,
  sandbox: false,
  redis: true,
  ownership: {},
  self: { id: 'api-1', role: 'api', ingests: false },
  upstream: new Map(),
  restBudget: [{ family: 'marketdata', limit: 2, counting: 1, waiting: 0, scope: 'deployment' }],
  events: [],
  freshness: [],
  ...overrides,
});

describe('consoleSnapshot', () => {
  it('names each market as the table shows it, its last price as /summary writes it', () => {
    const [row, other] = consoleSnapshot(input({})).markets;
    expect(row).toMatchObject({
      market: 'BTC_USDT',
      base: 'BTC',
      quote: 'USDT',
      lastPrice: '65000.00',
      syncState: 're-synchronising',
      bookVersion: 7,
      dataAgeMs: 40,
      spreadPercent: '1.98',
      depthPlus2PercentUsd: '5.00',
      flags: ['thin_depth'],
      owner: null,
    });
    expect(other.lastPrice).toBeNull();
  });

  it('takes the owners from the leases, and counts what each live ingest replica owns', () => {
    const snapshot = consoleSnapshot(
      input({
        ownership: {
          view: {
            leased: true,
            owners: new Map([['btc_usdt', 'ingest-a']]),
            members: [
              { id: 'ingest-a', expiresAt: 13_000 },
              { id: 'ingest-b', expiresAt: 12_000 },
            ],
          },
        },
      }),
    );
    expect(snapshot.markets.map((row) => row.owner)).toEqual(['ingest-a', null]);
    expect(snapshot.replicas.ingest).toEqual([
      { id: 'ingest-a', expiresInMs: 3_000, owns: 1 },
      { id: 'ingest-b', expiresInMs: 2_000, owns: 0 },
    ]);
    expect(snapshot.replicas.api).toEqual([{ id: 'api-1', role: 'api', self: true }]);
    expect(snapshot.upstream).toBeNull();
    expect(snapshot.restBudget).toBeNull();
  });

  it('without leases, names the process that ingests everything', () => {
    const snapshot = consoleSnapshot(
      input({
        redis: false,
        ownership: { view: { leased: false, owners: new Map(), members: [] } },
        self: { id: 'laptop-1', role: 'all', ingests: true },
        upstream: new Map([['hub', 'connected']]),
      }),
    );
    expect(snapshot.markets.map((row) => row.owner)).toEqual(['laptop-1', 'laptop-1']);
    expect(snapshot.replicas.ingest).toEqual([{ id: 'laptop-1', expiresInMs: 0, owns: 2 }]);
    expect(snapshot.upstream).toEqual([{ name: 'hub', state: 'connected' }]);
    expect(snapshot.restBudget).toEqual([
      { family: 'marketdata', limit: 2, counting: 1, waiting: 0, scope: 'deployment' },
    ]);
  });
});
