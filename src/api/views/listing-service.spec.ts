import { MarketCatalog, MarketInfo } from '../../market/market-info';
import { Trade } from '../../market/trade';
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

describe('ListingService last prices', () => {
  it("gives a head whose window is empty a zero last and the newest known trade's last traded price", async () => {
    const summary = await summaryOf(
      head(MARKET.instrument, 1, { ...LIVE_BOOK, lastTrade: { price: '0.001241', time: 5 } }),
    );
    expect(summary).toMatchObject({
      last: '0.0000000',
      lastTraded: '0.0012410',
      high: '0.0000000',
      baseVolume: '0.0000',
    });
  });

  it('has no last traded price beside a live book when no trade is known, never a zero one', async () => {
    const summary = await summaryOf(head(MARKET.instrument, 1, { ...LIVE_BOOK }));
    expect(summary).toMatchObject({ last: '0.0000000', lastTraded: null, highestBid: '0.0012300' });
  });

  it("reads a head without lastTrade: the window's last price is the last traded price too", async () => {
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
    expect(await summaryOf(older)).toMatchObject({ last: '0.0012400', lastTraded: '0.0012400' });
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

describe('ListingService trades', () => {
  it('are those of the 24 hours up to now, newest first, in published figures', async () => {
    const now = 1_800_000_000_000;
    const hour = 3_600_000;
    const store = new MemoryStateStore();
    await store.writeCatalog(CATALOG);
    const stored = (id: string, time: number, price: string, amount: string): Trade => ({
      id,
      instrument: MARKET.instrument,
      price,
      amount,
      side: 'sell',
      time,
    });
    await store.write([
      {
        instrument: MARKET.instrument,
        replace: true,
        head: head(MARKET.instrument, 1, { tradesRevision: 1 }),
        tradesAdded: [
          stored('1', now - 24 * hour, '0.0012', '1'),
          stored('2', now - 24 * hour + 1, '0.00125', '0.5'),
          stored('3', now - hour, '0.00125', '0.25'),
          stored('4', now - hour, '0.001255', '2'),
          stored('5', now + 1, '0.0013', '1'),
        ],
      },
    ]);
    const views = new MarketViews(store);
    await views.onApplicationBootstrap();
    try {
      const window = await new ListingService(views).trades(MARKET, now);
      expect(window.version).toBe('1:3:2-4');
      expect(window.trades()).toEqual([
        {
          id: '4',
          price: '0.0012550',
          baseVolume: '2.0000',
          quoteVolume: '0.0025100',
          time: now - hour,
          side: 'sell',
        },
        {
          id: '3',
          price: '0.0012500',
          baseVolume: '0.2500',
          quoteVolume: '0.0003125',
          time: now - hour,
          side: 'sell',
        },
        {
          id: '2',
          price: '0.0012500',
          baseVolume: '0.5000',
          quoteVolume: '0.0006250',
          time: now - 24 * hour + 1,
          side: 'sell',
        },
      ]);
      const later = await new ListingService(views).trades(MARKET, now + 2);
      expect(later.version).toBe('1:3:3-5');
    } finally {
      await views.onApplicationShutdown();
    }
  });
});
