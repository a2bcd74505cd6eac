import { Logger } from '@nestjs/common';
import { MarketInfo } from '../../market/market-info';
import { Trade } from '../../market/trade';
import { parseExactJson } from '../../upstream/exact-json';
import { GatewayClient } from '../../upstream/gateway/gateway-client';
import { GatewaySubscriptionSpec } from '../../upstream/gateway/gateway-subscription';
import { TradeFeed } from './trade-feed';

const INSTRUMENT_ID = 7;
const MARKET = {
  instrument: 'eth_usdt',
  gateway: { instrumentId: INSTRUMENT_ID, symbol: 'ETHUSDT' },
} as MarketInfo;

/** A trade record as the gateway writes one, as its exact JSON. */
function record(id: number, time: number): string {
  return JSON.stringify({
    InstrumentId: INSTRUMENT_ID,
    TradeId: id,
    Price: '2000.5',
    Quantity: '0.1',
    TakerSide: 0,
    TradeTime: time,
  });
}

/** A gateway that hands the feed's subscription to the test and records the history asked for. */
function fakeGateway() {
  const asked: { StartTimeStamp?: number; EndTimeStamp?: number }[] = [];
  let spec: GatewaySubscriptionSpec | undefined;
  const gateway = {
    subscribe: (subscription: GatewaySubscriptionSpec) => {
      spec = subscription;
      return { close: async () => undefined };
    },
    request: async (name: string, payload: { StartTimeStamp?: number; EndTimeStamp?: number }) => {
      if (name === 'GetTradesHistory') asked.push(payload);
      return parseExactJson('[]');
    },
  } as unknown as GatewayClient;
  const reply = (ids: [number, number][]) =>
    spec!.onReply(parseExactJson(`[${ids.map(([id, time]) => record(id, time)).join(',')}]`), 0);
  return { gateway, asked, reply };
}

describe('TradeFeed', () => {
  // The feed logs each backfill; the assertions read the history asked for instead. Jest gives each
  // spec file its own modules, so the setting ends with the file.
  beforeAll(() => Logger.overrideLogger(false));
  const newest = 1_700_000_000_000;

  function open(snapshotCount: number) {
    const fake = fakeGateway();
    const received: Trade[] = [];
    const feed = new TradeFeed(fake.gateway, { snapshotCount, now: () => newest + 60_000 });
    feed.open(MARKET, {
      onTrades: (trades) => received.push(...trades),
      newestTradeTime: () => newest,
      onCaughtUp: () => undefined,
    });
    return { ...fake, received };
  }

  it('asks the history for the gap between the newest known trade and a full snapshot', async () => {
    const { reply, asked } = open(2);
    reply([
      [11, newest + 500],
      [12, newest + 600],
    ]);
    await Promise.resolve();
    expect(asked).toEqual([
      expect.objectContaining({ StartTimeStamp: newest - 1, EndTimeStamp: newest + 500 }),
    ]);
  });

  it('asks for the newest known millisecond when a full snapshot starts within it', async () => {
    // Trades of that millisecond older than the snapshot's first may be neither known nor in it.
    const { reply, asked } = open(2);
    reply([
      [11, newest],
      [12, newest + 1],
    ]);
    await Promise.resolve();
    expect(asked).toEqual([expect.objectContaining({ StartTimeStamp: newest - 1, EndTimeStamp: newest })]);
  });

  it('asks for nothing when the snapshot reaches back past the newest known trade or is not full', async () => {
    const full = open(2);
    full.reply([
      [9, newest - 1],
      [12, newest + 1],
    ]);
    const short = open(3);
    short.reply([
      [11, newest + 500],
      [12, newest + 600],
    ]);
    await Promise.resolve();
    expect([full.asked, short.asked]).toEqual([[], []]);
    expect(full.received.map((trade) => trade.id)).toEqual(['9', '12']);
  });
});
