import { Trade } from '../market/trade';

/**
 * A trade's fields but its time and instrument as `id|side|price|amount`, side `b` (buy) or `s`
 * (sell): how a write carries its trades (with the time beside each) to the write script and to
 * the instrument's change channel.
 */
export function encodeTradeFields(trade: Trade): string {
  return `${trade.id}|${trade.side === 'buy' ? 'b' : 's'}|${trade.price}|${trade.amount}`;
}

export function decodeTradeFields(fields: string, instrument: string, time: number): Trade {
  const parts = fields.split('|');
  if (parts.length !== 4 || (parts[1] !== 'b' && parts[1] !== 's')) {
    throw new Error(`malformed trade fields ${JSON.stringify(fields)} of ${instrument}`);
  }
  const [id, side, price, amount] = parts;
  return { id, instrument, price, amount, side: side === 'b' ? 'buy' : 'sell', time };
}
