import { Candle } from '../../src/market/candle-stats';
import { tradeCandles } from '../../src/market/trade-candles';
import { BAR_ARCHIVE, BarArchive, HourBlock } from '../../src/store/bar-archive';
import { waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { readTruth } from '../support/truth';

const HOUR_MS = 3_600_000;
const MARKETS = ['btc_usdt', 'eth_usdt'];

const floorHour = (time: number) => time - (time % HOUR_MS);
const withoutQuoteVolume = ({ start, end, open, high, low, close, volume }: Candle): Candle => ({
  start,
  end,
  open,
  high,
  low,
  close,
  volume,
});

describe('bar sealing from the ingested trades', () => {
  let stack: TestStack;
  let archive: BarArchive;

  beforeAll(async () => {
    // Three hours of history: the window starts with closed hours to seal.
    stack = await startTestStack({ sandbox: { SANDBOX_HISTORY_HOURS: '3' } });
    archive = stack.app.app.get<BarArchive>(BAR_ARCHIVE);
  }, 60_000);
  afterAll(() => stack.close());

  it('seals each closed hour in Redis as the 1-minute bars of the exchange’s trades of that hour', async () => {
    const thisHour = floorHour(Date.now());
    const from = thisHour - 3 * HOUR_MS;
    for (const instrument of MARKETS) {
      await waitFor(
        async () => ((await archive.readBackfill(instrument)).sealedThrough ?? 0) >= thisHour,
        `${instrument} sealed through ${new Date(thisHour).toISOString()}`,
        60_000,
        200,
      );
      const truth = await readTruth(stack.sandbox, instrument);
      const trades = truth.trades
        .filter((trade) => trade.time >= from && trade.time < thisHour)
        .sort((a, b) => a.time - b.time || Number(a.id) - Number(b.id));
      const expected: HourBlock[] = [];
      for (let hour = from; hour < thisHour; hour += HOUR_MS) {
        const ofHour = trades.filter((trade) => floorHour(trade.time) === hour);
        if (ofHour.length > 0) {
          expected.push({
            hourStart: hour,
            source: 'trades',
            bars: tradeCandles(ofHour, '1m').map(withoutQuoteVolume),
          });
        }
      }
      // The sandbox's history reaches into the hour before this one at least.
      expect(expected.map((block) => block.hourStart)).toContain(thisHour - HOUR_MS);
      expect(await archive.readHours(instrument, from, thisHour)).toEqual(expected);
    }
  }, 90_000);
});
