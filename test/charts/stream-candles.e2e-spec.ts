import { isDeepStrictEqual } from 'node:util';
import { canonicalDecimal, compareCanonical, toDecimal, ZERO } from '../../src/market/decimal';
import { historyBars } from '../support/chart-truth';
import { untilBackfilled } from '../support/chart-backfill';
import { waitFor } from '../support/fault-run';
import { Frame, StreamClient } from '../support/stream-client';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { readTruth, setFlow } from '../support/truth';

interface ListedTrade {
  tradeID: string;
  price: string;
  base_volume: string;
  trade_timestamp: string;
}

const INSTRUMENT = 'btc_usdt';
const CHANNEL = `candles.${INSTRUMENT}.1`;
const MINUTE = 60_000;

describe('GET /stream, candles channels', () => {
  let stack: TestStack;
  let url: string;
  const clients: StreamClient[] = [];

  async function connect(): Promise<StreamClient> {
    const client = new StreamClient(url);
    clients.push(client);
    await client.opened;
    return client;
  }

  // A sandbox with 30 hours of history takes a while to start on a loaded machine: a bound of 90 s.
  beforeAll(async () => {
    // Hours past the trade window, so that an open week or month reaches into the chart history.
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '20', SANDBOX_HISTORY_HOURS: '30' } });
    url = stack.app.url;
    await waitFor(
      async () => {
        const response = await fetch(`${url}/trades/${INSTRUMENT}`);
        return response.ok && ((await response.json()) as unknown[]).length > 0;
      },
      'trades served',
      20_000,
    );
  }, 90_000);
  afterAll(async () => {
    for (const client of clients) client.close();
    await stack?.close();
  });

  it('sends the bar being built, its changes, then the final bar equal to its trades', async () => {
    const client = await connect();
    client.send({ op: 'subscribe', channels: ['candles.BTC-USDT.1'] });
    expect(await client.frame((frame) => frame.type === 'subscribed')).toEqual({
      type: 'subscribed',
      channel: CHANNEL,
    });
    const candles = (): Frame[] => client.frames.filter((frame) => frame.type === 'candle');
    await client.frame((frame) => frame.type === 'candle' && frame.closed === false);
    const first = candles()[0];
    // The bar of the minute the first frame was about, closed once the minute is over.
    const final = await waitFor(
      () => candles().some((frame) => frame.time === first.time && frame.closed === true),
      'the first bar closed',
      120_000,
      200,
    ).then(() => candles().find((frame) => frame.time === first.time && frame.closed === true)!);
    const updates = candles().filter((frame) => frame.time === first.time && frame.closed === false);
    expect(updates.length).toBeGreaterThan(0);
    // An open bar only grows: volume never falls, high never falls, low never rises.
    for (let at = 1; at < updates.length; at++) {
      expect(
        compareCanonical(updates[at].volume as string, updates[at - 1].volume as string),
      ).toBeGreaterThanOrEqual(0);
      expect(
        compareCanonical(updates[at].high as string, updates[at - 1].high as string),
      ).toBeGreaterThanOrEqual(0);
    }
    // Nothing open of that minute after its final bar.
    const finalAt = candles().indexOf(final);
    expect(
      candles()
        .slice(finalAt + 1)
        .some((frame) => frame.time === first.time && frame.closed === false),
    ).toBe(false);

    // A trade of that minute that came after it closed corrects the bar with another closed frame:
    // the minute's last closed frame comes to equal its listed trades.
    const lastClosed = () =>
      candles()
        .filter((frame) => frame.time === first.time && frame.closed === true)
        .at(-1);
    let listed: Frame | undefined;
    await waitFor(
      async () => {
        listed = await listedBar(first.time as number);
        return isDeepStrictEqual(lastClosed(), listed);
      },
      "the minute's last closed bar equal to its listed trades",
      20_000,
      200,
    ).catch(() => undefined);
    expect(lastClosed()).toEqual(listed);
  }, 150_000);

  /** The closed candle frame of the minute starting at `time`, from the trades `/trades` lists; none without a trade. */
  async function listedBar(time: number): Promise<Frame | undefined> {
    const response = await fetch(`${url}/trades/${INSTRUMENT}`);
    const minute = ((await response.json()) as ListedTrade[])
      .filter((trade) => Math.floor(Number(trade.trade_timestamp) / MINUTE) * MINUTE === time)
      .reverse();
    if (minute.length === 0) return undefined;
    const prices = minute.map((trade) => trade.price);
    const highest = prices.reduce((a, b) => (toDecimal(a).gte(toDecimal(b)) ? a : b));
    const lowest = prices.reduce((a, b) => (toDecimal(a).lte(toDecimal(b)) ? a : b));
    const scale = minute[0].base_volume.split('.')[1]?.length ?? 0;
    const volume = minute.reduce((sum, trade) => sum.plus(toDecimal(trade.base_volume)), ZERO).toFixed(scale);
    return {
      type: 'candle',
      channel: CHANNEL,
      time,
      open: minute[0].price,
      high: highest,
      low: lowest,
      close: minute.at(-1)!.price,
      volume,
      closed: true,
    };
  }

  it('starts a week and a month from the chart history before the trade window, as /history has them', async () => {
    await untilBackfilled(stack.app, INSTRUMENT);
    // With the flow stopped and its last trade served, the open bars stand still.
    await setFlow(stack.sandbox, 0);
    const truth = await readTruth(stack.sandbox, INSTRUMENT);
    await waitFor(async () => {
      const served = (await (await fetch(`${url}/trades/${INSTRUMENT}`)).json()) as ListedTrade[];
      return served[0]?.tradeID === truth.trades.at(-1)?.id;
    }, "the sandbox's last trade served");

    const client = await connect();
    for (const resolution of ['1W', '1M']) {
      const channel = `candles.${INSTRUMENT}.${resolution}`;
      client.send({ op: 'subscribe', channels: [channel] });
      const frame = await client.frame((each) => each.type === 'candle' && each.channel === channel);
      const now = Math.floor(Date.now() / 1000);
      const history = await fetch(
        `${url}/tradingview/history?symbol=BTCUSDT&resolution=${resolution}&from=${now - 40 * 86_400}&to=${now}`,
      );
      const newest = historyBars(await history.text()).at(-1)!;
      const text = (field: string) => canonicalDecimal(frame[field] as string);
      expect(frame).toMatchObject({ type: 'candle', channel, time: newest.time * 1000, closed: false });
      expect({
        time: newest.time,
        open: text('open'),
        high: text('high'),
        low: text('low'),
        close: text('close'),
        volume: text('volume'),
      }).toEqual(newest);
    }
  }, 120_000);

  it('answers a resolution it does not build with bad_channel', async () => {
    const client = await connect();
    client.send({ op: 'subscribe', channels: [`candles.${INSTRUMENT}.2`, `candles.${INSTRUMENT}`] });
    await waitFor(() => client.frames.filter((frame) => frame.type === 'error').length >= 2, 'two errors');
    expect(client.frames.filter((frame) => frame.type === 'error').map((frame) => frame.code)).toEqual([
      'bad_channel',
      'bad_channel',
    ]);
    expect(client.frames.some((frame) => frame.type === 'subscribed')).toBe(false);
  });
});
