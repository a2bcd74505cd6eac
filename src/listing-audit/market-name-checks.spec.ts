import { checkMarketKeys, checkOrientation, compareMarketSets } from './market-name-checks';

describe('market names', () => {
  it('holds keys to the letter case of the format and reads them as BASE_QUOTE', () => {
    const upper = checkMarketKeys(['BTC_USDT', 'eth_btc', 'BTCUSDT'], '/summary', 'upper');
    expect(upper.markets).toEqual(['BTC_USDT', 'ETH_BTC']);
    expect(upper.findings.map((finding) => `${finding.where}: ${finding.detail}`)).toEqual([
      '/summary "eth_btc": not upper-case BASE_QUOTE',
      '/summary "BTCUSDT": not upper-case BASE_QUOTE',
    ]);
    expect(checkMarketKeys(['btc-usdt', 'BTC_USDT'], '/pairs', 'any').findings).toEqual([
      expect.objectContaining({ check: 'market-keys', detail: 'listed twice' }),
    ]);
  });

  it('compares the markets of two lists', () => {
    expect(compareMarketSets(['A_B', 'C_D'], '/summary', ['A_B'], '/ticker', 'fail')).toEqual([
      {
        check: 'market-keys',
        severity: 'fail',
        where: '/ticker C_D',
        detail: 'listed in /summary but not in /ticker',
      },
    ]);
  });

  it('fails a base and quote the other way round, by symbol or by asset name', () => {
    const found = checkOrientation(
      [
        { where: '/pairs BTC_USDT', key: 'BTC_USDT', base: 'BTC', quote: 'USDT' },
        { where: '/pairs ETH_BTC', key: 'ETH_BTC', base: 'BTC', quote: 'ETH' },
        { where: '/ticker eth_btc', key: 'eth_btc', base: 'Bitcoin', quote: 'Ether', byName: true },
        { where: '/ticker btc_usdt', key: 'btc_usdt', base: 'Bitcoin', quote: 'Tether', byName: true },
      ],
      new Map([
        ['BTC', 'Bitcoin'],
        ['ETH', 'Ether'],
        ['USDT', 'Tether'],
      ]),
    );
    expect(found.map((finding) => `${finding.severity} ${finding.where}: ${finding.detail}`)).toEqual([
      'fail /pairs ETH_BTC: base "BTC", quote "ETH": swapped for the market ETH_BTC',
      'fail /ticker eth_btc: base "Bitcoin", quote "Ether": swapped for the market eth_btc',
    ]);
  });
});
