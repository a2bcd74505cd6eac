import { MarketInfo } from '../../market/market-info';
import { toJson } from '../../market/json-number';
import { BookView } from '../../store/state-store';
import { depthRecord, exchangeInfoJson, pairsJson } from './mirror-records';

const MARKET: MarketInfo = {
  instrument: 'pepe_eth',
  baseAsset: 'pepe',
  quoteAsset: 'eth',
  priceScale: 18,
  amountScale: 18,
  minAmount: '1',
  priceDeviation: '0.25',
  makerFee: '0',
  takerFee: '0.001',
  hidden: true,
  status: 'Halted',
  side: 'BuySell',
  isCustom: false,
  createdAt: '2024-03-14T09:26:53.589793Z',
  updatedAt: '2024-03-14T09:26:53.589793Z',
};

describe('mirror records', () => {
  it('writes a market list from the records as sent, else from the modelled fields with numbers as numbers', () => {
    const sent = '{"baseAsset":"btc","makerFeeLimit":0,"minAmount":0.00010}';
    const json = pairsJson([{ ...MARKET, instrument: 'btc_usdt', exchangeRecord: sent }, MARKET]);
    expect(json).toBe(
      `{"btc_usdt":${sent},"pepe_eth":{"baseAsset":"pepe","quoteAsset":"eth","minAmount":1,` +
        '"priceDeviation":0.25,"hidden":1,"makerFee":0,"takerFee":0.001,"priceScale":18,"amountScale":18,' +
        '"createdAt":"2024-03-14T09:26:53.589793Z","updatedAt":"2024-03-14T09:26:53.589793Z",' +
        '"status":"Halted","side":"BuySell","isCustom":false}}',
    );
    expect(exchangeInfoJson(638460052135890000n, '{}')).toBe('{"serverTime":638460052135890000,"pairs":{}}');
  });

  it('writes a book with both sides ascending, exact totals and snapshot true', () => {
    const book: BookView = {
      instrument: 'pepe_eth',
      version: 42,
      updatedAt: 1,
      syncState: 'live',
      bids: [
        ['0.0000000043212', '0.1'],
        ['0.0000000043211', '0.2'],
      ],
      asks: [
        ['0.0000000043214', '123456789.123456789012345678'],
        ['0.0000000043215', '0.876543210987654322'],
      ],
    };
    expect(toJson(depthRecord('pepe_eth', book))).toBe(
      '{"instrument":"pepe_eth","bids":[{"amount":0.2,"price":0.0000000043211},' +
        '{"amount":0.1,"price":0.0000000043212}],"asks":[{"amount":123456789.123456789012345678,' +
        '"price":0.0000000043214},{"amount":0.876543210987654322,"price":0.0000000043215}],"version":42,' +
        '"askTotalAmount":123456790,"bidTotalAmount":0.3,"snapshot":true}',
    );
  });
});
