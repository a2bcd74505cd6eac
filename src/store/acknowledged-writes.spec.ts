import { head } from './testing/state-store-contract';
import { AcknowledgedWrites } from './acknowledged-writes';

describe('AcknowledgedWrites', () => {
  it('names the instruments whose stored head is missing or differs from the last write', () => {
    const writes = new AcknowledgedWrites();
    writes.record('btc_usdt', head('btc_usdt', 7));
    writes.record('eth_usdt', head('eth_usdt', 3));
    writes.record('sol_eur', head('sol_eur', 2));
    const stored = new Map([
      ['btc_usdt', head('btc_usdt', 7)],
      ['eth_usdt', head('eth_usdt', 2)],
    ]);
    expect(writes.lost(stored)).toEqual(['eth_usdt', 'sol_eur']);
  });

  it('checks the trades revision as well as the book version', () => {
    const writes = new AcknowledgedWrites();
    writes.record('btc_usdt', { ...head('btc_usdt', 7), tradesRevision: 5 });
    expect(writes.lost(new Map([['btc_usdt', { ...head('btc_usdt', 7), tradesRevision: 4 }]]))).toEqual([
      'btc_usdt',
    ]);
  });

  it('forgets an instrument another writer took over', () => {
    const writes = new AcknowledgedWrites();
    writes.record('btc_usdt', head('btc_usdt', 7));
    writes.forget('btc_usdt');
    expect(writes.lost(new Map())).toEqual([]);
    expect(writes.instruments()).toEqual([]);
  });
});
