import { MarketCatalog, MarketInfo } from '../../market/market-info';
import { EMPTY_STATS } from '../../market/market-stats';
import { MemoryStateStore } from '../../store/memory-state-store';
import { InstrumentHead } from '../../store/state-store';
import { head } from '../../store/testing/state-store-contract';
import { ListingService } from './listing-service';
import { MarketViews } from './market-views';

const MARKET: MarketInfo = {
  instrument: 'ltc_btc',
  baseAsset: 'ltc',
  quoteAsset: 'btc',
  priceScale: 7,
  amountScale: 4,
  minAmount: '0.01',
  priceDeviation: '0.1',
  makerFee: '0.001',
  takerFee: '0.002',
  hidden: false,
  status: 'Halted',
  side: 'BuySell',
  isCustom: false,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};
const CATALOG: MarketCatalog = { markets: [MARKET], assets: [], refreshedAt: 1 };
const LIVE_BOOK = { bestBid: ['0.00123', '1'], bestAsk: ['0.00125', '2'] } as const;

/** The summary a head gives, as an API replica reads it from the store. */
async function summaryOf(stored: InstrumentHead) {
  const store = new MemoryStateStore();
  await store.writeCatalog(CATALOG);
  await store.write([{ instrument: MARKET.instrument, replace: true, head: stored }]);
  const views = new MarketViews(store);
  await views.onApplicationBootstrap();
  try {
    return new ListingService(views).markets().markets[0].summary;
  } finally {
    await views.onApplicationShutdown();
  }
}

describe('ListingService last price', () => {
  it('is the newest known trade of a head whose window is empty', async () => {
    const summary = await summaryOf(
      head(MARKET.instrument, 1, { ...LIVE_BOOK, lastTrade: { price: '0.001241', time: 5 } }),
    );
    expect(summary).toMatchObject({ last: '0.0012410', high: '0.0000000', baseVolume: '0.0000' });
  });

  it('is null beside a live book when no trade is known, never zero', async () => {
    const summary = await summaryOf(head(MARKET.instrument, 1, { ...LIVE_BOOK }));
    expect(summary.last).toBeNull();
    expect(summary.highestBid).toBe('0.0012300');
  });

  it("reads a head written by a replica that predates lastTrade: the window's last price, or none", async () => {
    const older = head(MARKET.instrument, 1, {
      ...LIVE_BOOK,
      stats: {
        ...EMPTY_STATS,
        last: '0.00124',
        open: '0.00124',
        high: '0.00124',
        low: '0.00124',
        tradeCount: 1,
      },
    });
    expect('lastTrade' in older).toBe(false);
    expect((await summaryOf(older)).last).toBe('0.0012400');
    expect((await summaryOf(head(MARKET.instrument, 1, { ...LIVE_BOOK }))).last).toBeNull();
  });
});

describe('ListingService listing', () => {
  it('summarizes again only the markets whose head moved', () => {
    const other: MarketInfo = { ...MARKET, instrument: 'eth_btc' };
    const heads = new Map<string, InstrumentHead>([
      [MARKET.instrument, head(MARKET.instrument, 1, { ...LIVE_BOOK })],
      [other.instrument, head(other.instrument, 1, { ...LIVE_BOOK })],
    ]);
    let generation = 1;
    const views = {
      ready: true,
      get listingGeneration() {
        return generation;
      },
      markets: () => [MARKET, other],
      head: (instrument: string) => heads.get(instrument),
    } as unknown as MarketViews;
    const service = new ListingService(views);
    const [ltc, eth] = service.markets().markets;

    heads.set(other.instrument, head(other.instrument, 2, { ...LIVE_BOOK, bestBid: ['0.00124', '1'] }));
    generation += 1;
    const [ltcAfter, ethAfter] = service.markets().markets;
    expect(ltcAfter).toBe(ltc);
    expect(ethAfter).not.toBe(eth);
    expect([eth.summary.highestBid, ethAfter.summary.highestBid]).toEqual(['0.0012300', '0.0012400']);
  });
});
