import { CandleSource } from '../candle-source';
import { IngestedInstruments } from '../ingested-instruments';
import { InstrumentPipeline } from '../instrument-pipeline';
import { SerialWork } from '../serial-work';
import { LocalOwnerRequests } from './local-owner-requests';
import { OwnerRequestHandler } from './owner-request-handler';

describe('OwnerRequestHandler', () => {
  let verified: string[];
  let asked: jest.Mock;
  let work: SerialWork;
  let handler: OwnerRequestHandler;

  beforeEach(() => {
    verified = [];
    asked = jest.fn();
    const instruments = new IngestedInstruments();
    const pipeline = (instrument: string, tradeFeed: 'live' | 'unavailable') =>
      ({
        instrument,
        tradeFeed,
        verify: async () => void verified.push(instrument),
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
    handler = new OwnerRequestHandler(new LocalOwnerRequests(), instruments, work, {
      ask: asked,
    } as unknown as CandleSource);
  });

  it('checks the books of the instruments ingested here, and only those', async () => {
    handler.handle({ kind: 'verify', instruments: ['btc_usdt', 'xrp_usdt'] });
    await work.stop();

    expect(verified).toEqual(['btc_usdt']);
  });

  it('asks for candles only where there is no trade feed', () => {
    handler.handle({ kind: 'candles', instruments: ['btc_usdt', 'eth_usdt', 'xrp_usdt'] });

    expect(asked.mock.calls).toEqual([['eth_usdt']]);
  });
});
