import { decodeBookChange } from './book-change-message';
import { head } from './testing/state-store-contract';

const instrument = 'btc_usdt';
const headJson = JSON.stringify(head(instrument, 7));

describe('decodeBookChange', () => {
  it('reads the five lines the write script publishes, each price once with its last amount', () => {
    expect(decodeBookChange(instrument, `3\n0\n${headJson}\n100 1 99 0 100 2\n`)).toEqual({
      instrument,
      fromVersion: 3,
      replace: false,
      head: head(instrument, 7),
      bids: [
        ['100', '2'],
        ['99', '0'],
      ],
      asks: [],
    });
    expect(decodeBookChange(instrument, `\n1\n${headJson}\n\n101 1`)).toEqual({
      instrument,
      replace: true,
      head: head(instrument, 7),
      bids: [],
      asks: [['101', '1']],
    });
  });

  it('rejects a message of another shape or another instrument', () => {
    for (const text of [
      '',
      `3\n0\n${headJson}\n100 1`,
      `x\n0\n${headJson}\n\n`,
      `3\n2\n${headJson}\n\n`,
      `3\n0\n{not json\n\n`,
      `3\n0\n${JSON.stringify(head('eth_usdt', 7))}\n\n`,
      `3\n0\nnull\n\n`,
    ])
      expect(decodeBookChange(instrument, text)).toBeUndefined();
  });
});
