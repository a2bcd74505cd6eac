import { encodeLease } from '../../src/store/lease-value';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { StoreUnderTest } from '../../src/store/testing/state-store-contract';

/** Stores of one test on one prefix over one Redis (a server or a cluster), with an admin connection. */
export interface RedisStores {
  readonly admin: {
    set(key: string, value: string, mode: 'PX', ms: number): Promise<unknown>;
    del(key: string): Promise<unknown>;
  };
  open(): Promise<RedisStateStore>;
  close(): Promise<void>;
}

/** Opens the first store of `stores` as the contract's subject; leases are set through the admin connection. */
export async function redisStoreUnderTest(stores: RedisStores): Promise<StoreUnderTest> {
  const store = await stores.open();
  return {
    store,
    openPeer: () => stores.open(),
    setLease: async (instrument, fence) => {
      const key = store.keys.instrument(instrument).lease;
      if (fence) await stores.admin.set(key, encodeLease(fence), 'PX', 60_000);
      else await stores.admin.del(key);
    },
    close: () => stores.close(),
  };
}
