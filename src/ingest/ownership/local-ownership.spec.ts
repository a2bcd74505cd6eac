import { LocalOwnership } from './local-ownership';

describe('LocalOwnership', () => {
  let events: string[];
  let ownership: LocalOwnership;

  beforeEach(() => {
    events = [];
    ownership = new LocalOwnership();
    ownership.start({
      acquired: (instrument, fence) => events.push(`+${instrument}${fence ? ' fenced' : ''}`),
      lost: (instrument, reason) => events.push(`-${instrument} ${reason}`),
    });
  });

  it('owns every listed instrument without a fence, and loses those no longer listed', () => {
    expect(ownership.status()).toMatchObject({ settled: false, owned: 0 });
    ownership.setListed(['btc_usdt', 'eth_usdt']);
    ownership.setListed(['eth_usdt', 'sol_eur']);
    expect(events).toEqual(['+btc_usdt', '+eth_usdt', '-btc_usdt unlisted', '+sol_eur']);
    expect(ownership.owns('eth_usdt')).toBe(true);
    expect(ownership.status()).toEqual({ settled: true, owned: 2, replicas: 1, unowned: 0 });
  });

  it('loses a fenced instrument, and takes nothing once stopped', async () => {
    ownership.setListed(['btc_usdt']);
    ownership.fenced('btc_usdt');
    ownership.fenced('btc_usdt');
    await ownership.stop();
    ownership.setListed(['btc_usdt', 'eth_usdt']);
    expect(events).toEqual(['+btc_usdt', '-btc_usdt fenced']);
  });
});
