import { MarketInfo } from '../../market/market-info';
import { Trade } from '../../market/trade';
import { ChangeNotice, TradeTail } from '../../store/state-store';
import { TradeFeedDriver } from './trade-feed-driver';
import { TradesChannelMessage } from './trades-message';

const instrument = 'btc_usdt';
const market = { instrument, priceScale: 2, amountScale: 3 } as MarketInfo;

function trade(id: number, time: number): Trade {
  return { id: String(id), instrument, price: '100.5', amount: '0.25', side: 'sell', time };
}

/** A store of trades that announces each change, and can lose its contents. */
class TradeList {
  stored: Trade[] = [];
  revision = 0;
  private change?: (notice: ChangeNotice) => void;
  private reset?: () => void;

  readTradesFrom = (_: string, from: number): Promise<TradeTail> =>
    Promise.resolve({
      trades: this.stored.filter((each) => each.time >= from),
      count: this.stored.length,
      oldest: this.stored[0],
    });
  onChange = (listener: (notice: ChangeNotice) => void) => {
    this.change = listener;
    return () => (this.change = undefined);
  };
  onReset = (listener: () => void) => {
    this.reset = listener;
    return () => (this.reset = undefined);
  };

  async add(...trades: Trade[]): Promise<void> {
    this.stored.push(...trades);
    this.revision++;
    this.change?.({ kind: 'instrument', instrument, bookVersion: 1, tradesRevision: this.revision });
    await settled();
  }

  async lose(): Promise<void> {
    this.stored = [];
    this.reset?.();
    await settled();
  }
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Hands the store's notices to the driver, as `TradeFeeds` does. */
function started(store: TradeList, driver: TradeFeedDriver): TradeFeedDriver {
  store.onChange((notice) => {
    if (notice.kind === 'instrument') driver.notice(notice);
  });
  driver.start();
  return driver;
}

function sent(messages: TradesChannelMessage[]): (number | string)[] {
  return messages.flatMap((message) =>
    message.type === 'trades'
      ? message.trades.map((each): number | string => Number(each.id))
      : [message.state],
  );
}

describe('TradeFeedDriver', () => {
  it('sends the trades after its start time, each once, as /trades formats them', async () => {
    const store = new TradeList();
    store.stored = [trade(1, 10)];
    const messages: TradesChannelMessage[] = [];
    const driver = new TradeFeedDriver('trades.btc_usdt', market, store, 10, (m) => messages.push(m));
    started(store, driver);
    await settled();
    await store.add(trade(2, 11), trade(3, 11));
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

  it('says resyncing once when the store is emptied, then sends only trades it has not sent', async () => {
    const store = new TradeList();
    const messages: TradesChannelMessage[] = [];
    const driver = new TradeFeedDriver('trades.btc_usdt', market, store, 0, (m) => messages.push(m));
    started(store, driver);
    await store.add(trade(1, 10), trade(2, 11));
    await store.lose();
    await store.add();
    await store.add(trade(1, 10), trade(2, 11), trade(3, 12));
    expect(sent(messages)).toEqual([1, 2, 'resyncing', 3]);
    driver.stop();
  });

  it('reads once at the start and once per notice, and stops listening', async () => {
    const store = new TradeList();
    const reads: number[] = [];
    const counting = {
      ...store,
      readTradesFrom: (name: string, from: number) => {
        reads.push(from);
        return store.readTradesFrom(name, from);
      },
    };
    const driver = new TradeFeedDriver('trades.btc_usdt', market, counting, 0, () => undefined);
    started(store, driver);
    await settled();
    await store.add();
    expect(reads).toHaveLength(2);
    driver.stop();
    await store.add();
    expect(reads).toHaveLength(2);
  });
});
