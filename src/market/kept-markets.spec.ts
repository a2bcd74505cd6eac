import { withKeptMarkets } from './kept-markets';
import { MarketInfo } from './market-info';

function market(instrument: string, minAmount = '1'): MarketInfo {
  const [baseAsset, quoteAsset] = instrument.split('_');
  return {
    instrument,
    baseAsset,
    quoteAsset,
    priceScale: 2,
    amountScale: 4,
    minAmount,
    priceDeviation: '0',
    makerFee: '0.001',
    takerFee: '0.002',
    hidden: false,
    status: 'Open',
    side: 'BuySell',
    isCustom: false,
    createdAt: '2024-01-01T00:00:00',
    updatedAt: '2024-01-01T00:00:00',
  };
}

describe('withKeptMarkets', () => {
  const previous = [market('btc_usdt', '0.5'), market('eth_usdt'), market('sol_usdt')];

  it('keeps the previous record of a market whose entry is malformed now', () => {
    const result = withKeptMarkets([market('btc_usdt', '0.1')], ['ETH_usdt'], previous);
    expect(result.markets).toEqual([market('btc_usdt', '0.1'), market('eth_usdt')]);
    expect(result.kept).toEqual(['eth_usdt']);
  });

  it('drops a market the list no longer names, and a malformed one never read before', () => {
    const result = withKeptMarkets([market('btc_usdt')], ['doge_usdt'], previous);
    expect(result.markets.map((m) => m.instrument)).toEqual(['btc_usdt']);
    expect(result.kept).toEqual([]);
  });

  it('does not add a market twice when a second, malformed entry names one that was read', () => {
    const result = withKeptMarkets([market('btc_usdt', '0.1')], ['btc_usdt', 'btc_usdt'], previous);
    expect(result.markets).toEqual([market('btc_usdt', '0.1')]);
  });

  it('keeps every market when every entry is malformed', () => {
    const result = withKeptMarkets([], ['btc_usdt', 'eth_usdt', 'sol_usdt'], previous);
    expect(result.markets).toEqual(previous);
  });
});
