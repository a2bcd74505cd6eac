import { isJsonObject, parseExactJson } from '../exact-json';
import { LevelMeaning, levelUpdates, readSpecFixture } from '../testing/spec-fixtures';
import { decodeJsonBookItem } from './book-item-codec';

interface BookItemMeaning {
  readonly type: string;
  readonly invocationId: string;
  readonly item: {
    readonly instrument: string;
    readonly bids: readonly LevelMeaning[];
    readonly asks: readonly LevelMeaning[];
    readonly version: string;
    readonly askTotalAmount: string;
    readonly bidTotalAmount: string;
    readonly snapshot: boolean;
  };
}

const RECORD_SEPARATOR = '\u001e';
const RECEIVED_AT = 1_714_564_801_600;

describe.each(['hub/book-snapshot.json', 'hub/book-update.json'])(
  'decodeJsonBookItem against the specification fixture %s',
  (file) => {
    const { wire, means } = readSpecFixture<BookItemMeaning>(file);

    it('is one StreamItem message, closed by the record separator', () => {
      expect(wire.indexOf(RECORD_SEPARATOR)).toBe(wire.length - 1);
      const message = parseExactJson(wire.slice(0, -1));
      expect(isJsonObject(message) && [message.type, message.invocationId]).toEqual([
        means.type,
        means.invocationId,
      ]);
    });

    it('reads the item with its version, snapshot flag and every level exactly (the totals are not read)', () => {
      const message = parseExactJson(wire.slice(0, -1));
      const item = isJsonObject(message) ? message.item : undefined;
      expect(decodeJsonBookItem(item, RECEIVED_AT, means.item.instrument)).toEqual({
        instrument: means.item.instrument,
        version: Number(means.item.version),
        snapshot: means.item.snapshot,
        updates: levelUpdates(means.item),
        time: RECEIVED_AT,
      });
    });
  },
);
