import { Trade } from '../market/trade';

/**
 * The sorted-set member of a trade: `id|side|price|amount`, side `b` (buy) or `s` (sell).
 * The time is the member's score and the instrument is in the key, so neither is repeated here;
 * equal trades always give equal members, which makes adding a trade twice store it once.
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
