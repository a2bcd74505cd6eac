import { decodeInstrumentChange } from './instrument-change-message';
import { head, trade } from './testing/state-store-contract';

const instrument = 'btc_usdt';
const headJson = JSON.stringify(head(instrument, 7));

describe('decodeInstrumentChange', () => {
  it('reads the seven lines the write script publishes, the instrument its head names, each price once with its last amount', () => {
    expect(
      decodeInstrumentChange(`3\n0\n${headJson}\n100 1 99 0 100 2\n\n4\n1700000000005 12|s|27000.5|0.25`),
    ).toEqual({
      instrument,
      fromVersion: 3,
      replace: false,
      head: head(instrument, 7),
      bids: [
        ['100', '2'],
        ['99', '0'],
      ],
      asks: [],
      fromTradesRevision: 4,
      trades: [trade('12', 1_700_000_000_005, { side: 'sell' })],
    });
    expect(decodeInstrumentChange(`\n1\n${headJson}\n\n101 1\n\n`)).toEqual({
      instrument,
      replace: true,
      head: head(instrument, 7),
      bids: [],
      asks: [['101', '1']],
      trades: [],
    });
  });

  it('rejects a message of another shape or without an instrument', () => {
    for (const text of [
      '',
      `3\n0\n${headJson}\n100 1\n\n`,
      `x\n0\n${headJson}\n\n\n\n`,
      `3\n2\n${headJson}\n\n\n\n`,
      `3\n0\n{not json\n\n\n\n`,
      `3\n0\n${JSON.stringify({ ...head(instrument, 7), instrument: undefined })}\n\n\n\n`,
      `3\n0\nnull\n\n\n\n`,
      `3\n0\n${headJson}\n\n\nx\n`,
      `3\n0\n${headJson}\n\n\n4\n1700000000005 12|x|1|1`,
    ])
      expect(decodeInstrumentChange(text)).toBeUndefined();
  });
});
