import { TradeView } from './market-views';
import { checkVolumes, VolumeRound } from './volume-checks';

const NOW = Date.parse('2026-11-26T12:00:00Z');

const TRADES: TradeView[] = [
  { where: 't[0]', id: '1', price: '5.0', baseVolume: '1.1', quoteVolume: '5.5', timeMs: NOW - 3000 },
  { where: 't[1]', id: '2', price: '6.0', baseVolume: '0.9', quoteVolume: '5.4', timeMs: NOW - 2000 },
  { where: 't[2]', id: '3', price: '5.5', baseVolume: '2', quoteVolume: '11.0', timeMs: NOW - 1000 },
];

function round(baseVolume: string, quoteVolume: string, settled = true): VolumeRound {
  return {
    settled,
    figures: { market: 'ETH_BTC', where: '/summary ETH_BTC', last: '5.5', baseVolume, quoteVolume },
    trades: TRADES,
    figuresAtMs: NOW,
  };
}

describe('checkVolumes', () => {
  it('passes volumes that are the exact sums of the trades', () => {
    expect(checkVolumes('ETH_BTC', [round('4.0', '21.90')])).toEqual([]);
  });

  it('fails a quote volume of last price x base volume, and a base volume off by one trade', () => {
    const findings = checkVolumes('ETH_BTC', [round('2.9', '22.0')]);
    expect(findings.map((finding) => `${finding.where}: ${finding.detail}`)).toEqual([
      '/summary ETH_BTC base volume: 2.9, but the sum of its 3 trades is 4',
      '/summary ETH_BTC quote volume: 22.0, but the sum of its 3 trades is 21.9 (price x base volume)',
    ]);
  });

  it('is inconclusive, not failed, when trades kept changing around every read', () => {
    expect(checkVolumes('ETH_BTC', [round('1', '1', false), round('1', '1', false)])).toEqual([
      expect.objectContaining({
        check: 'volumes-match-trades',
        severity: 'warn',
        detail: expect.stringMatching(/^inconclusive/),
      }),
    ]);
  });

  it('leaves out trades that were older than 24 hours when the figures were read', () => {
    const old = {
      ...round('4.0', '21.9'),
      trades: [...TRADES, { ...TRADES[0], id: '0', timeMs: NOW - 90_000_000 }],
    };
    expect(checkVolumes('ETH_BTC', [old])).toEqual([]);
  });
});
