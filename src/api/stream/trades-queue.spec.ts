import { TradesChannelMessage } from './trades-message';
import { TradesQueue } from './trades-queue';

const channel = 'trades.btc_usdt';
const trades = (id: string): TradesChannelMessage => ({
  type: 'trades',
  channel,
  trades: [{ id, price: '1.00', amount: '1', side: 'buy', time: 1 }],
});

function drain(queue: TradesQueue): TradesChannelMessage[] {
  const sent: TradesChannelMessage[] = [];
  for (let message = queue.next(); message; message = queue.next()) sent.push(message);
  return sent;
}

describe('TradesQueue', () => {
  it('gives the messages in order', () => {
    const queue = new TradesQueue(channel, 3);
    queue.push(trades('1'));
    queue.push(trades('2'));
    expect(drain(queue)).toEqual([trades('1'), trades('2')]);
    expect(queue.next()).toBeUndefined();
  });

  it('gives way to one resyncing status when more than the backlog waits, then goes on', () => {
    const queue = new TradesQueue(channel, 2);
    expect(['1', '2', '3'].map((id) => queue.push(trades(id)))).toEqual([true, true, false]);
    expect(queue.push(trades('4'))).toBe(true);
    expect(drain(queue)).toEqual([{ type: 'status', channel, state: 'resyncing' }, trades('4')]);
  });
});
