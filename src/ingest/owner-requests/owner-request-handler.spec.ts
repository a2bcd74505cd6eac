import { Logger } from '@nestjs/common';
import { CandleSource } from '../candle-source';
import { IngestedInstruments } from '../ingested-instruments';
import { InstrumentPipeline } from '../instrument-pipeline';
import { SerialWork } from '../serial-work';
import { ShutdownSignal } from '../shutdown-signal';
import { LocalOwnerRequests } from './local-owner-requests';
import { OwnerRequestHandler } from './owner-request-handler';

describe('OwnerRequestHandler', () => {
  let verified: string[];
  let failing: boolean;
  let asked: jest.Mock;
  let shutdown: ShutdownSignal;
  let warn: jest.SpyInstance;
  let instruments: IngestedInstruments;
  let work: SerialWork;
  let handler: OwnerRequestHandler;
  const handlerOver = (serial: SerialWork) =>
    new OwnerRequestHandler(
      new LocalOwnerRequests(),
      instruments,
      serial,
      { ask: asked } as unknown as CandleSource,
      shutdown,
    );

  beforeEach(() => {
    verified = [];
    failing = false;
    asked = jest.fn();
    shutdown = new ShutdownSignal();
    instruments = new IngestedInstruments();
    const pipeline = (instrument: string, tradeFeed: 'live' | 'unavailable') =>
      ({
        instrument,
        tradeFeed,
        verify: async () => {
          if (failing) throw new Error('REST snapshot: aborted');
          verified.push(instrument);
        },
      }) as unknown as InstrumentPipeline;
    instruments.add({
      market: { instrument: 'btc_usdt' } as never,
      pipeline: pipeline('btc_usdt', 'live'),
      feeds: [],
    });
    instruments.add({
      market: { instrument: 'eth_usdt' } as never,
      pipeline: pipeline('eth_usdt', 'unavailable'),
      feeds: [],
    });
    work = new SerialWork();
    handler = handlerOver(work);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => warn.mockRestore());

  it('checks the books of the instruments ingested here, and only those', async () => {
    handler.handle({ kind: 'verify', instruments: ['btc_usdt', 'xrp_usdt'] });
    await work.stop();

    expect(verified).toEqual(['btc_usdt']);
  });

  it('tells a failed book check, but not one aborted by the shutdown', async () => {
    failing = true;
    handler.handle({ kind: 'verify', instruments: ['btc_usdt'] });
    await work.stop();
    expect(warn.mock.calls).toEqual([[expect.stringMatching(/^btc_usdt: book check skipped/)]]);

    warn.mockClear();
    work = new SerialWork();
    handler = handlerOver(work);
    shutdown.abort();
    handler.handle({ kind: 'verify', instruments: ['btc_usdt'] });
    await work.stop();
    expect(warn).not.toHaveBeenCalled();
  });

  it('asks for candles only where there is no trade feed', () => {
    handler.handle({ kind: 'candles', instruments: ['btc_usdt', 'eth_usdt', 'xrp_usdt'] });

    expect(asked.mock.calls).toEqual([['eth_usdt']]);
  });
});
