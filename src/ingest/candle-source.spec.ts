import { Logger } from '@nestjs/common';
import { RestClient } from '../upstream/rest/rest-client';
import { CandleSource } from './candle-source';
import { IngestedInstruments } from './ingested-instruments';
import { InstrumentPipeline } from './instrument-pipeline';
import { SerialWork } from './serial-work';
import { ShutdownSignal } from './shutdown-signal';

describe('CandleSource', () => {
  let history: jest.Mock;
  let setCandles: jest.Mock;
  let warn: jest.SpyInstance;
  let shutdown: ShutdownSignal;
  let candles: CandleSource;

  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    history = jest.fn();
    setCandles = jest.fn();
    const instruments = new IngestedInstruments();
    const pipeline = { instrument: 'btc_usdt', setCandles } as unknown as InstrumentPipeline;
    instruments.add({ market: { instrument: 'btc_usdt' } as never, pipeline, feeds: [] });
    shutdown = new ShutdownSignal();
    candles = new CandleSource(instruments, { history } as unknown as RestClient, new SerialWork(), shutdown);
  });

  afterEach(() => jest.restoreAllMocks());

  it('hands the fetched candles to the pipeline', async () => {
    history.mockResolvedValue([]);
    await candles.refresh('btc_usdt');

    expect(setCandles).toHaveBeenCalledWith([]);
    expect(candles.unavailable()).toEqual([]);
  });

  it('warns once per spell of failures and lists the instrument meanwhile', async () => {
    history.mockRejectedValue(new Error('rate limited'));
    await candles.refresh('btc_usdt');
    await candles.refresh('btc_usdt');

    expect(warn).toHaveBeenCalledTimes(1);
    expect(candles.unavailable()).toEqual(['btc_usdt']);

    history.mockResolvedValue([]);
    await candles.refresh('btc_usdt');
    expect(candles.unavailable()).toEqual([]);

    history.mockRejectedValue(new Error('rate limited'));
    await candles.refresh('btc_usdt');
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('starts a new spell for an instrument forgotten in between', async () => {
    history.mockRejectedValue(new Error('rate limited'));
    await candles.refresh('btc_usdt');
    candles.forget('btc_usdt');
    await candles.refresh('btc_usdt');

    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('says nothing of a fetch that shutdown aborted', async () => {
    history.mockImplementation(async () => {
      shutdown.abort();
      throw new Error('aborted');
    });
    await candles.refresh('btc_usdt');

    expect(warn).not.toHaveBeenCalled();
    expect(candles.unavailable()).toEqual([]);
  });

  it('does nothing for an instrument not ingested here', async () => {
    await candles.refresh('eth_usdt');

    expect(history).not.toHaveBeenCalled();
  });
});
