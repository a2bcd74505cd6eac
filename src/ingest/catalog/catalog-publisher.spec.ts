import { MarketCatalog } from '../../market/market-info';
import { MemoryStateStore } from '../../store/memory-state-store';
import { CatalogPublisher } from './catalog-publisher';

/** A store in memory that can refuse writes and lose its contents, as Redis can. */
class FlakyStore extends MemoryStateStore {
  down = false;
  private resetListener?: () => void;

  override async writeCatalog(catalog: MarketCatalog): Promise<void> {
    if (this.down) throw new Error('store down');
    return super.writeCatalog(catalog);
  }

  override onReset(listener: () => void): () => void {
    this.resetListener = listener;
    return () => (this.resetListener = undefined);
  }

  /** The contents are gone; the listeners hear of it, after `meanwhile` (another replica's writes). */
  async loseContents(meanwhile?: () => Promise<void>): Promise<void> {
    await super.writeCatalog({ markets: [], assets: [], refreshedAt: 0 });
    await meanwhile?.();
    this.resetListener?.();
  }
}

const catalog = (refreshedAt: number): MarketCatalog => ({ markets: [], assets: [], refreshedAt });

describe('CatalogPublisher', () => {
  let store: FlakyStore;
  let failures: number;
  let publisher: CatalogPublisher;

  beforeEach(() => {
    jest.useFakeTimers();
    store = new FlakyStore();
    failures = 0;
    publisher = new CatalogPublisher(store, {
      retryMs: 1_000,
      onFailed: () => failures++,
      onStored: () => undefined,
    });
    publisher.start();
  });
  afterEach(() => {
    publisher.stop();
    jest.useRealTimers();
  });

  const stored = async () => (await store.readCatalog())?.refreshedAt;

  it('stores each catalogue published', async () => {
    await publisher.publish(catalog(1));
    expect(await stored()).toBe(1);
    await publisher.publish(catalog(2));
    expect(await stored()).toBe(2);
  });

  it('retries a failed write until the store takes it', async () => {
    store.down = true;
    await publisher.publish(catalog(1));
    expect(failures).toBe(1);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(failures).toBe(2);
    store.down = false;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(await stored()).toBe(1);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(failures).toBe(2);
  });

  it('writes the newest catalogue again when the store lost its contents', async () => {
    await publisher.publish(catalog(1));
    await publisher.publish(catalog(2));
    await store.loseContents();
    await jest.advanceTimersByTimeAsync(0);
    expect(await stored()).toBe(2);
  });

  it('leaves a newer catalogue that another replica put back after the loss', async () => {
    await publisher.publish(catalog(1));
    await store.loseContents(() => store.writeCatalog(catalog(5)));
    await jest.advanceTimersByTimeAsync(0);
    expect(await stored()).toBe(5);
    await store.loseContents(() => store.writeCatalog(catalog(0)));
    await jest.advanceTimersByTimeAsync(0);
    expect(await stored()).toBe(1);
  });

  it('puts back a catalogue it only read from the store, as another replica stored it', async () => {
    await store.writeCatalog(catalog(3));
    publisher.remember(catalog(3));
    await store.loseContents();
    await jest.advanceTimersByTimeAsync(0);
    expect(await stored()).toBe(3);
  });

  it('keeps the newer of a catalogue remembered and one published', async () => {
    await publisher.publish(catalog(4));
    publisher.remember(catalog(3));
    await store.loseContents();
    await jest.advanceTimersByTimeAsync(0);
    expect(await stored()).toBe(4);
    publisher.remember(catalog(6));
    await publisher.publish(catalog(7));
    expect(await stored()).toBe(7);
  });

  it('stops listening and retrying when stopped', async () => {
    store.down = true;
    await publisher.publish(catalog(1));
    publisher.stop();
    store.down = false;
    await jest.advanceTimersByTimeAsync(5_000);
    await store.loseContents();
    expect(await stored()).toBe(0);
  });
});
