import { Trade } from '../market/trade';

/**
 * A trade as `id|side|price|amount`, side `b` (buy) or `s` (sell): how a write carries its trades
 * (with the time beside it) to the write script and to the instrument's change channel, and the
 * member of the old sorted-set layout (time = score).
 */
export function encodeTradeMember(trade: Trade): string {
  return `${trade.id}|${trade.side === 'buy' ? 'b' : 's'}|${trade.price}|${trade.amount}`;
}

export function decodeTradeMember(member: string, instrument: string, time: number): Trade {
  const parts = member.split('|');
  if (parts.length !== 4 || (parts[1] !== 'b' && parts[1] !== 's')) {
    throw new Error(`malformed trade member ${JSON.stringify(member)} of ${instrument}`);
  }
  const [id, side, price, amount] = parts;
  return { id, instrument, price, amount, side: side === 'b' ? 'buy' : 'sell', time };
}
