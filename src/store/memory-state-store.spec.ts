import { MemoryStateStore } from './memory-state-store';
import { describeStateStoreContract, head } from './testing/state-store-contract';

describeStateStoreContract('MemoryStateStore', async () => {
  const store = new MemoryStateStore();
  return {
    store,
    openPeer: async () => store,
    setLease: async (instrument, fence) => store.setLease(instrument, fence),
    close: () => store.close(),
  };
});

describe('MemoryStateStore', () => {
  it('hands out values that cannot be changed behind its back', async () => {
    const store = new MemoryStateStore();
    await store.write([{ instrument: 'btc_usdt', replace: true, head: head('btc_usdt', 1) }]);
    const stored = (await store.readHeads(['btc_usdt'])).get('btc_usdt');
    expect(() => {
      (stored as { bookVersion: number }).bookVersion = 2;
    }).toThrow(TypeError);
    expect((await store.readHeads(['btc_usdt'])).get('btc_usdt')?.bookVersion).toBe(1);
  });

  it("keeps its own copy of a write: the writer's objects may change afterwards", async () => {
    const store = new MemoryStateStore();
    const written = { ...head('btc_usdt', 1), bestBid: ['10', '2'], stats: { ...head('btc_usdt', 1).stats } };
    const traded = {
      id: '7',
      instrument: 'btc_usdt',
      price: '10',
      amount: '1',
      side: 'buy' as const,
      time: 5,
    };
    await store.write([
      { instrument: 'btc_usdt', replace: true, head: written as never, tradesAdded: [traded] },
    ]);
    written.bestBid[0] = '11';
    written.stats.last = '11';
    traded.price = '11';
    const stored = (await store.readHeads(['btc_usdt'])).get('btc_usdt');
    expect(stored?.bestBid).toEqual(['10', '2']);
    expect(stored?.stats.last).toBe(head('btc_usdt', 1).stats.last);
    expect((await store.readTrades('btc_usdt'))[0].price).toBe('10');
    expect(Object.isFrozen(stored?.stats)).toBe(true);
  });

  it('keeps a listener that throws from silencing the others', async () => {
    const warnings: string[] = [];
    const store = new MemoryStateStore({ logger: { warn: (message) => warnings.push(message) } });
    const heard: number[] = [];
    store.onChange(() => {
      throw new Error('listener bug');
    });
    store.onChange((notice) => heard.push(notice.kind === 'instrument' ? notice.bookVersion : -1));
    await store.write([{ instrument: 'btc_usdt', replace: true, head: head('btc_usdt', 3) }]);
    await Promise.resolve();
    expect(heard).toEqual([3]);
    expect(warnings).toEqual([expect.stringContaining('listener bug')]);
  });

  it('rejects use after close', async () => {
    const store = new MemoryStateStore();
    await store.close();
    await expect(store.readBook('btc_usdt')).rejects.toThrow('closed');
    await expect(store.health()).resolves.toEqual({ reachable: false, error: 'store closed' });
  });
});
