import { Trade } from '../market/trade';
import { decodeTradeFields, encodeTradeFields } from './trade-fields-codec';

describe('trade fields codec', () => {
  const trade: Trade = {
    id: '123456789012345678',
    instrument: 'btc_usdt',
    price: '27000.000000000000000001',
    amount: '0.5',
    side: 'sell',
    time: 1_700_000_000_123,
  };

  it('encodes a trade compactly, without its time or instrument, and decodes it back', () => {
    const fields = encodeTradeFields(trade);
    expect(fields).toBe('123456789012345678|s|27000.000000000000000001|0.5');
    expect(encodeTradeFields({ ...trade, time: 1 })).toBe(fields);
    expect(decodeTradeFields(fields, trade.instrument, trade.time)).toEqual(trade);
    expect(decodeTradeFields(encodeTradeFields({ ...trade, side: 'buy' }), 'btc_usdt', trade.time).side).toBe(
      'buy',
    );
  });

  it.each(['1|x|2|3', '1|b|2', '1|b|2|3|4'])('rejects the fields %j', (fields) => {
    expect(() => decodeTradeFields(fields, 'btc_usdt', 0)).toThrow('malformed trade fields');
  });
});
