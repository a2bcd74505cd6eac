import { parseExactJson } from '../exact-json';
import { LevelMeaning, levelUpdates, readSpecFixture } from '../testing/spec-fixtures';
import { decodeDepth } from './depth-codec';

interface DepthMeaning {
  readonly instrument: string;
  readonly bids: readonly LevelMeaning[];
  readonly asks: readonly LevelMeaning[];
  readonly version: string;
  readonly askTotalAmount: string;
  readonly bidTotalAmount: string;
  readonly snapshot: boolean;
}

const RECEIVED_AT = 1_714_564_800_500;

describe('decodeDepth against the specification fixture', () => {
  it('reads the book snapshot with its version and every level exactly (the totals are not read)', () => {
    const { wire, means } = readSpecFixture<DepthMeaning>('rest/depth.json');
    expect(decodeDepth(parseExactJson(wire), RECEIVED_AT)).toEqual({
      instrument: means.instrument,
      version: Number(means.version),
      snapshot: means.snapshot,
      updates: levelUpdates(means),
      time: RECEIVED_AT,
    });
  });
});
