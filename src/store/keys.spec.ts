import { StoreKeys } from './keys';

describe('StoreKeys', () => {
  it('puts every key of an instrument under one hash tag, below the prefix', () => {
    expect(new StoreKeys().instrument('btc_usdt')).toEqual({
      head: 'mdg:{btc_usdt}:head',
      bids: 'mdg:{btc_usdt}:bids',
      asks: 'mdg:{btc_usdt}:asks',
      tradeHistory: 'mdg:{btc_usdt}:trade-history',
      tradeOpenMinute: 'mdg:{btc_usdt}:trade-open-minute',
      lease: 'mdg:{btc_usdt}:lease',
      leaseToken: 'mdg:{btc_usdt}:lease-token',
    });
    const custom = new StoreKeys('staging-mdg');
    expect(custom.instrument('eth_btc').head).toBe('staging-mdg:{eth_btc}:head');
    expect([custom.catalog, custom.epoch, custom.changes, custom.catalogChanges]).toEqual([
      'staging-mdg:catalog',
      'staging-mdg:epoch',
      'staging-mdg:changes',
      'staging-mdg:catalog-changes',
    ]);
  });

  it('names the coordination keys of the ingest replicas below the prefix', () => {
    const keys = new StoreKeys('staging-mdg');
    expect([keys.ingestMembers, keys.ownerRequests]).toEqual([
      'staging-mdg:ingest-members',
      'staging-mdg:owner-requests',
    ]);
  });

  it('keeps the bar archive of an instrument under its hash tag, a hash per UTC day', () => {
    const keys = new StoreKeys().bars('btc_usdt');
    expect([keys.day(Date.UTC(2026, 11, 1)), keys.backfill]).toEqual([
      'mdg:{btc_usdt}:bars:1796083200000',
      'mdg:{btc_usdt}:bar-backfill',
    ]);
    expect(() => new StoreKeys().bars('{btc}')).toThrow('invalid instrument');
  });

  it.each(['', 'a b', 'x{y', 'x}y'])('rejects the prefix %j', (prefix) => {
    expect(() => new StoreKeys(prefix)).toThrow('invalid key prefix');
  });

  it.each(['', 'btc usdt', '{btc}', 'btc}'])('rejects the instrument %j', (instrument) => {
    expect(() => new StoreKeys().instrument(instrument)).toThrow('invalid instrument');
  });
});
