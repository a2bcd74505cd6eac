import { parseExactJson } from '../exact-json';
import { decodeInfo } from './info-codec';
import { exchangeRecords } from './info-records';

const BODY =
  '{"serverTime":638460052135890000,"pairs":{' +
  '"BTC_USDT":{"baseAsset":"btc","quoteAsset":"usdt","minAmount":0.00010,"priceDeviation":0.15,"hidden":0,' +
  '"makerFee":0.001,"makerFeeLimit":0,"takerFee":0.002,"takerFeeLimit":12345678901234567890.5,' +
  '"priceScale":2,"amountScale":8,"createdAt":"2024-03-14T09:26:53.589793","updatedAt":"2024-03-14T09:26:53.589793",' +
  '"status":"open","side":"BuySell","isCustom":false,"note":"0.1"},' +
  '"eth_btc":"not a market"}}';

describe('exchangeRecords', () => {
  it('keeps every field of every entry as sent: number digits, numbers as numbers, dates and letter case', () => {
    const records = exchangeRecords(BODY);
    expect([...records.keys()]).toEqual(['btc_usdt']);
    const record = records.get('btc_usdt')!;
    expect(record).toContain('"minAmount":0.00010,');
    expect(record).toContain('"takerFeeLimit":12345678901234567890.5,');
    expect(record).toContain('"createdAt":"2024-03-14T09:26:53.589793",');
    expect(record).toContain('"status":"open"');
    expect(record).toContain('"note":"0.1"');
    expect(record.startsWith('{"baseAsset":"btc","quoteAsset":"usdt",')).toBe(true);
  });

  it('gives nothing, without throwing, for a body that is not a market list', () => {
    expect(exchangeRecords('not json').size).toBe(0);
    expect(exchangeRecords('{"pairs":[1,2]}').size).toBe(0);
    expect(exchangeRecords('[]').size).toBe(0);
  });

  it('becomes the exchangeRecord of the decoded market', () => {
    const info = decodeInfo(parseExactJson(BODY), exchangeRecords(BODY));
    expect(info.markets).toHaveLength(1);
    expect(info.markets[0].exchangeRecord).toBe(exchangeRecords(BODY).get('btc_usdt'));
    expect(decodeInfo(parseExactJson(BODY)).markets[0]).not.toHaveProperty('exchangeRecord');
  });
});
