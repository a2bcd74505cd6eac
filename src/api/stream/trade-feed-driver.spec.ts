import { MarketInfo } from '../../market/market-info';
import { Trade } from '../../market/trade';
import { MemoryStateStore } from '../../store/memory-state-store';
import { InstrumentChange } from '../../store/state-store';
import { head } from '../../store/testing/state-store-contract';
import { TradeFeedDriver, TradeStore } from './trade-feed-driver';
import { TradesChannelMessage } from './trades-message';

const instrument = 'btc_usdt';
const market = { instrument, priceScale: 2, amountScale: 3 } as MarketInfo;
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

function trade(id: number, time: number): Trade {
  return { id: String(id), instrument, price: '100.5', amount: '0.25', side: 'sell', time };
}

/**
 * The memory store as the driver sees it, with the faults of a real one: a change it drops, and a
 * server that restarts empty (the store then says it lost its contents). Reads are counted.
 */
class FaultyStore implements TradeStore {
  private server = new MemoryStateStore();
  private revision = 0;
  private version = 0;
  private readonly listeners = new Set<(change: InstrumentChange) => void>();
  private reset?: () => void;
  dropNextChange = false;
  reads = 0;

  constructor() {
    this.follow();
  }

  readTradesFrom = (name: string, from: number) => {
    this.reads++;
    return this.server.readTradesFrom(name, from);
  };

  followInstrument = (_: string, listener: (change: InstrumentChange) => void) => {
    this.listeners.add(listener);
    return { ready: Promise.resolve(), close: () => void this.listeners.delete(listener) };
  };

  onReset = (listener: () => void) => {
    this.reset = listener;
    return () => (this.reset = undefined);
  };

  async add(...trades: Trade[]): Promise<void> {
    this.version++;
    if (trades.length > 0) this.revision++;
    await this.server.write([
      {
        instrument,
        replace: this.version === 1,
        head: head(instrument, this.version, { tradesRevision: this.revision }),
        tradesAdded: trades,
      },
    ]);
    await settled();
  }

  async loseContents(): Promise<void> {
    this.server = new MemoryStateStore();
    this.follow();
    this.version = 0;
    this.revision = 0;
    this.reset?.();
    await settled();
  }

  private follow(): void {
    this.server.followInstrument(instrument, (change) => {
      if (this.dropNextChange) this.dropNextChange = false;
      else for (const listener of this.listeners) listener(change);
    });
  }
}

function sent(messages: TradesChannelMessage[]): (number | string)[] {
  return messages.flatMap((message) =>
    message.type === 'trades'
      ? message.trades.map((each): number | string => Number(each.id))
      : [message.state],
  );
}

async function started(store: FaultyStore, startTime: number) {
  const messages: TradesChannelMessage[] = [];
  const driver = new TradeFeedDriver('trades.btc_usdt', market, store, startTime, (m) => messages.push(m));
  driver.start();
  await settled();
  return { driver, messages };
}

describe('TradeFeedDriver', () => {
  it('sends the trades after its start time, each once, as /trades formats them', async () => {
    const store = new FaultyStore();
    await store.add(trade(1, 10));
    const { driver, messages } = await started(store, 10);
    await store.add(trade(3, 11), trade(2, 11));
    await store.add(trade(4, 12));
    expect(sent(messages)).toEqual([2, 3, 4]);
    expect(messages[0]).toEqual({
      type: 'trades',
      channel: 'trades.btc_usdt',
      trades: [
        { id: '2', price: '100.50', amount: '0.250', side: 'sell', time: 11 },
        { id: '3', price: '100.50', amount: '0.250', side: 'sell', time: 11 },
      ],
    });
    driver.stop();
  });

  it("sends a write's trades without reading while revisions follow on, and reads after a lost change", async () => {
    const store = new FaultyStore();
    await store.add(trade(1, 10));
    const { driver, messages } = await started(store, 0);
    await store.add(trade(2, 11));
    const readsOnTrack = store.reads;
    await store.add(trade(3, 12));
    await store.add(trade(4, 13));
    expect(store.reads).toBe(readsOnTrack);
    store.dropNextChange = true;
    await store.add(trade(5, 14));
    await store.add(trade(6, 15));
    expect(store.reads).toBe(readsOnTrack + 1);
    await store.add(trade(7, 16));
    expect(store.reads).toBe(readsOnTrack + 1);
    expect(sent(messages)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    driver.stop();
  });

  it('says resyncing once when the store is emptied, then sends only trades it has not sent', async () => {
    const store = new FaultyStore();
    const { driver, messages } = await started(store, 0);
    await store.add(trade(1, 10), trade(2, 11));
    await store.loseContents();
    await store.add();
    await store.add(trade(1, 10), trade(2, 11), trade(3, 12));
    await store.add(trade(4, 13));
    expect(sent(messages)).toEqual([1, 2, 'resyncing', 3, 4]);
    driver.stop();
  });

  it('stops following the store when stopped', async () => {
    const store = new FaultyStore();
    const { driver, messages } = await started(store, 0);
    await store.add(trade(1, 10));
    driver.stop();
    const reads = store.reads;
    await store.add(trade(2, 11));
    expect(sent(messages)).toEqual([1]);
    expect(store.reads).toBe(reads);
  });
});
