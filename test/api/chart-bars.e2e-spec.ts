import { ChartBars } from '../../src/api/charts/chart-bars';
import { StoredChartBars } from '../../src/api/charts/stored-chart-bars';
import { MarketViews } from '../../src/api/views/market-views';
import { rollUpBars } from '../../src/market/bars/bar-roll-up';
import { ONE_DAY, ONE_MINUTE, parseChartResolution } from '../../src/market/bars/chart-resolution';
import { Candle } from '../../src/market/candle-stats';
import { tradeCandles } from '../../src/market/trade-candles';
import { DAY_MS } from '../../src/market/trade-window';
import { BAR_ARCHIVE, BarArchive } from '../../src/store/bar-archive';
import { waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { setFlow, TruthTrade } from '../support/truth';
import { settle } from './expected-figures';

const BTC = 'btc_usdt';
const MINUTE = 60_000;
const HOUR = 3_600_000;
/** An hour far older than the sandbox's history, inside the retention: only this suite writes it. */
const OLD_HOUR = Date.now() - 300 * DAY_MS - (Date.now() % HOUR);

function oldBar(
  minute: number,
  open: string,
  high: string,
  low: string,
  close: string,
  volume: string,
): Candle {
  const start = OLD_HOUR + minute * MINUTE;
  return { start, end: start + MINUTE, open, high, low, close, volume };
}

describe('ChartBars in the running API (memory store)', () => {
  let stack: TestStack;
  let chartBars: ChartBars;
  let views: MarketViews;
  let truthTrades: TruthTrade[];

  beforeAll(async () => {
    stack = await startTestStack({ redis: false, sandbox: { SANDBOX_FLOW_RATE: '20' } });
    await waitFor(
      async () => (await fetch(`${stack.app.url}/health/ready`)).status === 200,
      'ready',
      30_000,
      100,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await setFlow(stack.sandbox, 0);
    truthTrades = (await settle(stack, [BTC])).get(BTC)!.trades;
    chartBars = stack.app.app.get(ChartBars);
    views = stack.app.app.get(MarketViews);
    await waitFor(
      async () => (await views.tradeList(BTC)).length === truthTrades.length,
      'the trade list read',
      10_000,
    );
  }, 90_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('is the stored reader, and builds the minutes of the window from the trades the listings read', async () => {
    expect(chartBars).toBeInstanceOf(StoredChartBars);
    const market = views.find(BTC)!;
    expect(truthTrades.length).toBeGreaterThan(0);
    const byTime = [...truthTrades].sort((a, b) => a.time - b.time);
    // The minute the window starts at moves with the clock: asked again if it moved during the call.
    for (let attempt = 0; ; attempt++) {
      const before = Date.now();
      const answer = await chartBars.bars(market, ONE_MINUTE, {
        from: before - 2 * DAY_MS,
        to: before + MINUTE,
      });
      const after = Date.now();
      const windowFrom = before - DAY_MS - ((before - DAY_MS) % MINUTE) + MINUTE;
      if (windowFrom !== after - DAY_MS - ((after - DAY_MS) % MINUTE) + MINUTE && attempt < 3) continue;
      const inWindow = answer.bars.filter((bar) => bar.start >= windowFrom);
      expect(inWindow).toEqual(
        tradeCandles(
          byTime.filter((trade) => trade.time >= windowFrom),
          '1m',
        ),
      );
      expect(inWindow.length).toBeGreaterThan(0);
      break;
    }
  });

  it('serves the archive under the window, rolled up to days', async () => {
    const market = views.find(BTC)!;
    const archive = stack.app.app.get<BarArchive>(BAR_ARCHIVE);
    const bars = [
      oldBar(3, '100', '101.5', '100', '101.5', '0.25'),
      oldBar(4, '101.5', '101.5', '99', '99', '1.000000001'),
      oldBar(9, '99', '99', '99', '99', '2'),
    ];
    // As a backfill does: the blocks, then the coverage they extend.
    await archive.writeHours(BTC, [{ hourStart: OLD_HOUR, source: 'exchange', bars }]);
    await archive.writeBackfill(BTC, { coveredFrom: OLD_HOUR });

    const minutes = await chartBars.bars(market, ONE_MINUTE, { from: OLD_HOUR, to: OLD_HOUR + HOUR });
    expect(minutes.bars).toEqual(bars);
    const fives = await chartBars.bars(market, parseChartResolution('5')!, {
      from: OLD_HOUR,
      to: OLD_HOUR + HOUR,
    });
    expect(fives.bars).toEqual(rollUpBars(bars, parseChartResolution('5')!));
    const day = OLD_HOUR - (OLD_HOUR % DAY_MS);
    const daily = await chartBars.bars(market, ONE_DAY, { from: day - 10 * DAY_MS, to: day + 2 * DAY_MS });
    expect(daily.bars).toEqual([
      {
        start: day,
        end: day + DAY_MS,
        open: '100',
        high: '101.5',
        low: '99',
        close: '99',
        volume: '3.250000001',
      },
    ]);
    // The day after it and the answer's range hold nothing newer: the next bar asked for is that day.
    const later = await chartBars.bars(market, ONE_DAY, { from: day + DAY_MS, to: day + 5 * DAY_MS });
    expect(later).toEqual({ bars: [], previous: day });
    const counted = await chartBars.bars(market, ONE_DAY, { from: 0, to: day + 5 * DAY_MS, countback: 3 });
    expect(counted.bars).toEqual(daily.bars);
  });
});
