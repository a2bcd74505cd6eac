import { tuning } from '../config/tuning';
import { MarketInfo } from '../market/market-info';
import { DAY_MS } from '../market/trade-window';
import { wholeMinutesBefore } from '../store/trade-history';
import { ingestJobs, IngestJobWork } from './ingest-jobs';
import { OwnerRequest } from './owner-requests/owner-request';

const market = (instrument: string, hidden = false) => ({ instrument, hidden }) as MarketInfo;

describe('ingestJobs', () => {
  const intervals = tuning({
    catalogRefreshMs: 2000,
    bookVerifyIntervalMs: 3000,
    candleRefreshMs: 4000,
    tradeTrimIntervalMs: 5000,
  });
  let asked: OwnerRequest[];
  let trimmed: [readonly string[], number][];
  let refreshes: number;
  let jobs: ReturnType<typeof ingestJobs>;

  beforeEach(() => {
    asked = [];
    trimmed = [];
    refreshes = 0;
    const work: IngestJobWork = {
      refreshCatalog: async () => void refreshes++,
      markets: async () => [market('btc_usdt'), market('hid_den', true), market('eth_usdt')],
      askOwners: async (request) => void asked.push(request),
      trimTrades: async (instruments, before) => trimmed.push([instruments, before]),
      now: () => 1_800_000_000_000,
    };
    jobs = ingestJobs(intervals, work);
  });

  const run = (name: string) => jobs.find((job) => job.name === name)!.run();

  it('schedules each job on its own interval under a stable name', () => {
    expect(jobs.map((job) => [job.name, job.everyMs])).toEqual([
      ['catalog-refresh', 2000],
      ['book-verify', 3000],
      ['candle-refresh', 4000],
      ['trade-trim', 5000],
    ]);
  });

  it('asks the owners of the listed markets to check books and refresh candles', async () => {
    await run('book-verify');
    await run('candle-refresh');
    expect(asked).toEqual([
      { kind: 'verify', instruments: ['btc_usdt', 'eth_usdt'] },
      { kind: 'candles', instruments: ['btc_usdt', 'eth_usdt'] },
    ]);
  });

  it('trims every market of the catalogue, hidden ones too, to 24 hours', async () => {
    await run('trade-trim');
    expect(trimmed).toEqual([
      [['btc_usdt', 'hid_den', 'eth_usdt'], wholeMinutesBefore(1_800_000_000_000 - DAY_MS)],
    ]);
  });

  it('refreshes the catalogue', async () => {
    await run('catalog-refresh');
    expect(refreshes).toBe(1);
  });
});
