import { Value } from '@sinclair/typebox/value';
import { TradingViewStreamingMessage } from '../../src/api/tradingview/streaming-schemas';
import { toDecimal, ZERO } from '../../src/market/decimal';
import { TradingViewStreaming } from '../../src/api/tradingview/tradingview-streaming';
import { waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { setFlow } from '../support/truth';
import { FeedReader, field } from '../support/tradingview-feed';

interface ListedTrade {
  tradeID: string;
  price: string;
  base_volume: string;
  trade_timestamp: string;
}

const INSTRUMENT = 'btc_usdt';
const SYMBOL = 'BTCUSDT';

describe('GET /tradingview/streaming', () => {
  let stack: TestStack;
  let url: string;
  const readers: FeedReader[] = [];
  const open = (): FeedReader => {
    const reader = new FeedReader(url);
    readers.push(reader);
    return reader;
  };
  const streaming = () => stack.app.app.get(TradingViewStreaming);

  async function body<T>(path: string): Promise<T> {
    const response = await fetch(`${url}${path}`);
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    return (await response.json()) as T;
  }

  /** What an endpoint serves, read until two reads in a row agree: the flow has paused. */
  async function settled<T>(path: string): Promise<T> {
    let previous = '';
    let last: T | undefined;
    await waitFor(
      async () => {
        last = await body<T>(path);
        const same = JSON.stringify(last) === previous;
        previous = JSON.stringify(last);
        return same;
      },
      `${path} settled`,
      15_000,
      300,
    );
    return last!;
  }

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '20' } });
    url = stack.app.url;
    await waitFor(
      async () => {
        const response = await fetch(`${url}/trades/${INSTRUMENT}`);
        return response.ok && ((await response.json()) as unknown[]).length > 0;
      },
      'trades served',
      20_000,
    );
  });
  afterAll(async () => {
    for (const reader of readers) reader.close();
    await stack?.close();
  });

  it('is chunked JSON that stays open, with heartbeats', async () => {
    const reader = open();
    await waitFor(() => reader.response !== undefined, 'the response head');
    expect(reader.response!.statusCode).toBe(200);
    expect(reader.response!.headers['transfer-encoding']).toBe('chunked');
    expect(reader.response!.headers['content-type']).toBe('application/json');
    expect(reader.response!.headers['content-length']).toBeUndefined();
    await waitFor(() => reader.of('h').length >= 2, 'two heartbeats', 20_000);
    expect(reader.ended).toBe(false);
    for (const line of reader.of('h')) expect(line).toMatch(/^\{"f":"h","t":\d+\}$/);
    // Every line is one compact JSON object of a documented shape.
    for (const line of reader.lines) {
      expect(line).not.toMatch(/\s/);
      expect(Value.Check(TradingViewStreamingMessage, JSON.parse(line))).toBe(true);
    }
    reader.close();
  });

  it("sends each new trade as it is, the best bid and ask, and today's bar as the trades make it", async () => {
    await setFlow(stack.sandbox, 20);
    const reader = open();
    await waitFor(
      () => reader.of('t', SYMBOL).length >= 10 && reader.of('d', SYMBOL).length > 0,
      'ten trades',
      20_000,
    );
    await setFlow(stack.sandbox, 0);
    const listed = await settled<ListedTrade[]>(`/trades/${INSTRUMENT}`);
    const book = await settled<{ bids: [string, string][]; asks: [string, string][] }>(
      `/orderbook/${INSTRUMENT}?depth=2`,
    );
    const key = (p: string, t: number, s: string) => `${p}|${t}|${s}`;
    const made = listed.map((trade) =>
      key(trade.price, Math.floor(Number(trade.trade_timestamp) / 1000), trade.base_volume),
    );
    const sent = () =>
      reader.of('t', SYMBOL).map((line) => key(field(line, 'p'), Number(field(line, 't')), field(line, 's')));
    // Every trade made since the first one sent, and nothing else, once each (listed newest first).
    const firstSent = made.lastIndexOf(sent()[0]);
    expect(firstSent).toBeGreaterThanOrEqual(0);
    const since = made.slice(0, firstSent + 1).reverse();
    await waitFor(() => sent().length >= since.length, 'every trade made since');
    expect(sent()).toEqual(since);

    await waitFor(() => {
      const quote = reader.of('q', SYMBOL).at(-1);
      return (
        quote !== undefined &&
        field(quote, 'bp') === book.bids[0][0] &&
        field(quote, 'ap') === book.asks[0][0]
      );
    }, 'the quote of the settled book');
    const quote = reader.of('q', SYMBOL).at(-1)!;
    expect([field(quote, 'bp'), field(quote, 'bs'), field(quote, 'ap'), field(quote, 'as')]).toEqual([
      ...book.bids[0],
      ...book.asks[0],
    ]);

    const daily = reader.of('d', SYMBOL).at(-1)!;
    const dayStart = Number(field(daily, 't'));
    expect(dayStart % 86_400).toBe(0);
    const today = listed
      .filter((trade) => Math.floor(Number(trade.trade_timestamp) / 1000) >= dayStart)
      .reverse();
    const volume = today.reduce((sum, trade) => sum.plus(toDecimal(trade.base_volume)), ZERO);
    const scale = today[0].base_volume.split('.')[1]?.length ?? 0;
    const prices = today.map((trade) => toDecimal(trade.price));
    expect([
      field(daily, 'o'),
      field(daily, 'h'),
      field(daily, 'l'),
      field(daily, 'c'),
      field(daily, 'v'),
    ]).toEqual([
      today[0].price,
      today.find((trade) => prices.every((price) => price.lte(toDecimal(trade.price))))!.price,
      today.find((trade) => prices.every((price) => price.gte(toDecimal(trade.price))))!.price,
      today.at(-1)!.price,
      volume.toFixed(scale),
    ]);
    reader.close();
    await setFlow(stack.sandbox, 20);
  });

  it('gives four connections the same lines in the same order', async () => {
    await setFlow(stack.sandbox, 20);
    const four = [open(), open(), open(), open()];
    await waitFor(() => streaming().readerCount >= 4, 'four readers');
    await waitFor(() => four.every((reader) => reader.lines.length >= 40), 'forty lines each', 30_000);
    const joined = four.map((reader) => `${reader.lines.join('\n')}\n`);
    // The connection that came last: its first lines, which every other one holds.
    const last = four.find((reader) =>
      joined.every((text) => text.includes(`${reader.lines.slice(0, 20).join('\n')}\n`)),
    );
    expect(last).toBeDefined();
    const head = last!.lines.slice(0, 20);
    const common = Math.min(...four.map((reader) => reader.lines.length)) - 10;
    const from = four.map((reader) =>
      reader.lines.findIndex((_, at) => head.every((line, k) => reader.lines[at + k] === line)),
    );
    const windows = four.map((reader, at) =>
      reader.lines.slice(from[at], from[at] + common - Math.max(...from)),
    );
    expect(windows[0].length).toBeGreaterThanOrEqual(20);
    for (const window of windows) expect(window).toEqual(windows[0]);
    for (const reader of four) reader.close();
  });

  it('ends every response when the process stops', async () => {
    const reader = open();
    await waitFor(() => streaming().readerCount >= 1 && reader.response !== undefined, 'a reader');
    await stack.app.closeHttp();
    await waitFor(() => reader.ended, 'the response ended');
    expect(reader.error).toBeUndefined();
  });
});
