import { TradeView } from './market-views';
import { checkTradeIds, checkTradeQuoteVolume, checkTradesWindow, DAY_MS } from './trade-checks';

const NOW = Date.parse('2026-11-26T12:00:00Z');

function trade(
  id: string,
  price: string,
  baseVolume: string,
  quoteVolume: string,
  timeMs = NOW - 1000,
): TradeView {
  return { where: `/trades/btc_usdt[${id}]`, id, price, baseVolume, quoteVolume, timeMs };
}

describe('trade checks', () => {
  it('accept a quote volume rounded to its last digit, fail base and quote swapped', () => {
    expect(checkTradeQuoteVolume([trade('1', '64946.00', '0.73702901', '47867.09')])).toEqual([]);
    expect(checkTradeQuoteVolume([trade('2', '64946.00', '47867.09', '0.73702901')])).toEqual([
      expect.objectContaining({ check: 'trade-quote-volume', where: '/trades/btc_usdt[2]' }),
    ]);
  });

  it('fail trades older than 24 hours, in the future, or timed in seconds', () => {
    const trades = [
      trade('1', '1', '1', '1', NOW - DAY_MS - 3_600_000),
      trade('2', '1', '1', '1', NOW + 3_600_000),
      trade('3', '1', '1', '1', Math.floor(NOW / 1000)),
      trade('4', '1', '1', '1'),
    ];
    expect(checkTradesWindow(trades, NOW, true).map((finding) => finding.detail)).toEqual([
      'time 2026-11-25T11:00:00.000Z is older than 24 hours',
      'time 2026-11-26T13:00:00.000Z is in the future',
      `time ${Math.floor(NOW / 1000)} reads as Unix seconds, not milliseconds`,
    ]);
    expect(checkTradesWindow(trades.slice(0, 1), NOW, false)).toEqual([]);
  });

  it('fail an id served twice', () => {
    expect(checkTradeIds([trade('7', '1', '1', '1'), trade('7', '1', '1', '1')])).toHaveLength(1);
  });
});
