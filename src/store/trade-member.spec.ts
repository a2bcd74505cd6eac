import { Trade } from '../market/trade';
import { decodeTradeMember, encodeTradeMember } from './trade-member';

describe('trade member', () => {
  const trade: Trade = {
    id: '123456789012345678',
    instrument: 'btc_usdt',
    price: '27000.000000000000000001',
    amount: '0.5',
    side: 'sell',
    time: 1_700_000_000_123,
  };

  it('encodes a trade compactly, without its time or instrument, and decodes it back', () => {
    const member = encodeTradeMember(trade);
    expect(member).toBe('123456789012345678|s|27000.000000000000000001|0.5');
    expect(encodeTradeMember({ ...trade, time: 1 })).toBe(member);
    expect(decodeTradeMember(member, trade.instrument, trade.time)).toEqual(trade);
    expect(decodeTradeMember(encodeTradeMember({ ...trade, side: 'buy' }), 'btc_usdt', trade.time).side).toBe(
      'buy',
    );
  });

  it.each(['1|x|2|3', '1|b|2', '1|b|2|3|4'])('rejects the member %j', (member) => {
    expect(() => decodeTradeMember(member, 'btc_usdt', 0)).toThrow('malformed trade member');
  });
});
