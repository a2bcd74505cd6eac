import { Logger } from '@nestjs/common';
import { MarketInfo } from '../market/market-info';
import { Trade } from '../market/trade';
import { WriteFence } from '../store/state-store';
import { CandleSource } from './candle-source';
import { Level1Feed } from './feeds/level1-feed';
import { TradeFeed } from './feeds/trade-feed';
import { IngestedInstruments } from './ingested-instruments';
import { InstrumentPipeline } from './instrument-pipeline';
import { PipelineFactory } from './pipeline-factory';
import { PipelineOpener } from './pipeline-opener';

function market(instrument: string, gateway?: MarketInfo['gateway']): MarketInfo {
  return { instrument, gateway } as MarketInfo;
}

describe('PipelineOpener', () => {
  let instruments: IngestedInstruments;
  let opened: { kind: 'trades' | 'level1'; instrument: string; closed: boolean }[];
  let asked: jest.Mock;
  let stopped: string[];
  let seeded: Map<string, readonly Trade[]>;
  let storedTrades: (instrument: string) => Promise<Trade[]>;

  function opener(withTradeFeed: boolean): PipelineOpener {
    const factory = {
      create: (info: MarketInfo, tradeFeed: 'live' | 'unavailable') =>
        ({
          instrument: info.instrument,
          tradeFeed,
          fence: undefined,
          start: () => undefined,
          stop: () => void stopped.push(info.instrument),
          seedable: true,
          seedTrades: (trades: readonly Trade[]) => void seeded.set(info.instrument, trades),
        }) as unknown as InstrumentPipeline,
    } as PipelineFactory;
    const feed = (kind: 'trades' | 'level1', instrument: string) => {
      const entry = { kind, instrument, closed: false };
      opened.push(entry);
      return { close: () => void (entry.closed = true) };
    };
    const tradeFeed = { open: (info: MarketInfo) => feed('trades', info.instrument) } as unknown as TradeFeed;
    const level1 = { open: (instrument: string) => feed('level1', instrument) } as unknown as Level1Feed;
    const candles = { ask: asked, forget: () => undefined } as unknown as CandleSource;
    const store = { readTrades: (instrument: string) => storedTrades(instrument) };
    return new PipelineOpener(instruments, factory, withTradeFeed ? tradeFeed : null, level1, candles, store);
  }

  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    instruments = new IngestedInstruments();
    opened = [];
    asked = jest.fn();
    stopped = [];
    seeded = new Map();
    storedTrades = async () => [];
  });

  afterEach(() => jest.restoreAllMocks());

  it('opens the trade feed where there is a login and gateway ids', () => {
    opener(true).open(market('btc_usdt', { instrumentId: 1, symbol: 'BTCUSDT' }), undefined);

    expect(opened).toEqual([{ kind: 'trades', instrument: 'btc_usdt', closed: false }]);
    expect(instruments.pipeline('btc_usdt')?.tradeFeed).toBe('live');
    expect(asked).not.toHaveBeenCalled();
  });

  it('starts a window with a trade feed from the trades the store holds, and reads none without', async () => {
    const trade: Trade = { id: '1', instrument: 'btc_usdt', price: '1', amount: '1', side: 'buy', time: 1 };
    const read = jest.fn(async () => [trade]);
    storedTrades = read;
    const pipelines = opener(true);
    pipelines.open(market('btc_usdt', { instrumentId: 1, symbol: 'BTCUSDT' }), undefined);
    pipelines.open(market('eth_usdt'), undefined);
    await new Promise(setImmediate);

    expect(read.mock.calls).toEqual([['btc_usdt']]);
    expect([...seeded]).toEqual([['btc_usdt', [trade]]]);
  });

  it('opens the pipeline all the same when the stored trades cannot be read', async () => {
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    storedTrades = async () => {
      throw new Error('Redis is down');
    };
    opener(true).open(market('btc_usdt', { instrumentId: 1, symbol: 'BTCUSDT' }), undefined);
    await new Promise(setImmediate);

    expect(instruments.pipeline('btc_usdt')?.tradeFeed).toBe('live');
    expect(seeded.size).toBe(0);
    expect(warned).toHaveBeenCalledWith(expect.stringContaining('btc_usdt: stored trades unreadable'));
  });

  it('falls back to level 1 and candles without a login', () => {
    opener(false).open(market('btc_usdt', { instrumentId: 1, symbol: 'BTCUSDT' }), undefined);

    expect(opened).toEqual([{ kind: 'level1', instrument: 'btc_usdt', closed: false }]);
    expect(asked).toHaveBeenCalledWith('btc_usdt');
  });

  it('asks for candles alone for a market without gateway ids', () => {
    opener(true).open(market('btc_usdt'), undefined);

    expect(opened).toEqual([]);
    expect(instruments.pipeline('btc_usdt')?.tradeFeed).toBe('unavailable');
    expect(asked).toHaveBeenCalledWith('btc_usdt');
  });

  it('closes the pipeline and its feeds', () => {
    const pipelines = opener(true);
    pipelines.open(market('btc_usdt', { instrumentId: 1, symbol: 'BTCUSDT' }), undefined);
    pipelines.close('btc_usdt');

    expect(stopped).toEqual(['btc_usdt']);
    expect(opened[0].closed).toBe(true);
    expect(instruments.pipelines()).toEqual([]);
  });

  it('opens a pipeline again, under its fence, once the catalogue has new gateway ids', () => {
    const pipelines = opener(true);
    const fence: WriteFence = { owner: 'replica-a', token: 7 };
    pipelines.open(market('btc_usdt'), fence);
    pipelines.open(market('eth_usdt', { instrumentId: 2, symbol: 'ETHUSDT' }), undefined);

    pipelines.reopenWhereGatewayIdsChanged(
      new Map([
        ['btc_usdt', market('btc_usdt', { instrumentId: 1, symbol: 'BTCUSDT' })],
        ['eth_usdt', market('eth_usdt', { instrumentId: 2, symbol: 'ETHUSDT' })],
      ]),
    );

    expect(stopped).toEqual(['btc_usdt']);
    expect(instruments.pipeline('btc_usdt')?.tradeFeed).toBe('live');
    expect(instruments.pipeline('btc_usdt')?.fence).toBe(fence);
  });

  it('leaves a pipeline as it is when the catalogue lost the gateway ids', () => {
    const pipelines = opener(true);
    pipelines.open(market('btc_usdt', { instrumentId: 1, symbol: 'BTCUSDT' }), undefined);

    pipelines.reopenWhereGatewayIdsChanged(new Map([['btc_usdt', market('btc_usdt')]]));

    expect(stopped).toEqual([]);
    expect(instruments.pipeline('btc_usdt')?.tradeFeed).toBe('live');
  });
});
