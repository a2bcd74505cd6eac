import fc from 'fast-check';
import { PriceLevel } from '../../book-update';
import { Decimal } from '../../decimal';
import { BookSnapshotMessage, BookUpdateMessage } from '../book-channel-message';
import { bookChecksum } from '../book-checksum';
import { BookReader, compareDecimalText } from './book-reader';

const channel = 'book.btc_usdt';

function snapshot(seq: number, bids: PriceLevel[], asks: PriceLevel[]): BookSnapshotMessage {
  return { type: 'snapshot', channel, seq, bids, asks, checksum: bookChecksum(bids, asks), ts: 0 };
}

function update(
  seq: number,
  prevSeq: number,
  changes: { bids?: PriceLevel[]; asks?: PriceLevel[] },
  checksum: number,
): BookUpdateMessage {
  return {
    type: 'update',
    channel,
    seq,
    prevSeq,
    bids: changes.bids ?? [],
    asks: changes.asks ?? [],
    checksum,
    ts: 0,
  };
}

const start = snapshot(
  5,
  [
    ['100.00', '2.0'],
    ['99.00', '1.0'],
  ],
  [['101.00', '1.0']],
);

describe('BookReader', () => {
  it('applies a snapshot, then updates that follow on, checking every checksum', () => {
    const reader = new BookReader();
    expect(reader.read(start)).toBe('snapshot');
    expect(reader.levels('bid')).toEqual([
      ['100.00', '2.0'],
      ['99.00', '1.0'],
    ]);
    const after: [PriceLevel[], PriceLevel[]] = [
      [['99.00', '1.0']],
      [
        ['100.50', '0.5'],
        ['101.00', '1.0'],
      ],
    ];
    const next = update(7, 5, { bids: [['100.00', '0']], asks: [['100.50', '0.5']] }, bookChecksum(...after));
    expect(reader.read(next)).toBe('update');
    expect([reader.levels('bid'), reader.levels('ask')]).toEqual(after);
    expect(reader.seq).toBe(7);
    expect(reader.state).toBe('live');
    expect(reader.problems).toEqual([]);
  });

  it('finds a gap', () => {
    const reader = new BookReader();
    reader.read(start);
    expect(reader.read(update(8, 6, {}, start.checksum))).toBe('gap');
    expect(reader.state).toBe('broken');
    expect(reader.problems).toEqual(['update 8 after 6, holding 5']);
    expect(reader.read(update(9, 8, {}, start.checksum))).toBe('ignored');
    expect(reader.read(start)).toBe('snapshot');
    expect(reader.state).toBe('live');
  });

  it('finds a wrong checksum, in a snapshot or an update', () => {
    const reader = new BookReader();
    expect(reader.read({ ...start, checksum: start.checksum + 1 })).toBe('bad-checksum');
    expect(reader.state).toBe('broken');
    reader.read(start);
    expect(reader.read(update(6, 5, { bids: [['98.00', '1.0']] }, start.checksum))).toBe('bad-checksum');
    expect(reader.problems).toHaveLength(2);
  });

  it('takes no update before a snapshot, nor after a resyncing status', () => {
    const waiting = new BookReader();
    expect(waiting.read(update(6, 5, {}, 0))).toBe('unexpected');
    const resyncing = new BookReader();
    resyncing.read(start);
    expect(resyncing.read({ type: 'status', channel, state: 'resyncing' })).toBe('resyncing');
    expect(resyncing.state).toBe('resyncing');
    expect(resyncing.read(update(6, 5, {}, start.checksum))).toBe('unexpected');
    expect(resyncing.problems).toEqual(['update 6 while resyncing']);
  });
});

describe('compareDecimalText', () => {
  it('orders plain decimals exactly, whatever their trailing zeros', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.nat({ max: 20 }), fc.nat({ max: 3 }))
      .map(([units, scale, padding]) => {
        const digits = units.toString().padStart(scale + 1, '0');
        const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
        return padding > 0 && !text.includes('.')
          ? `${text}.${'0'.repeat(padding)}`
          : text + '0'.repeat(padding);
      });
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(Math.sign(compareDecimalText(a, b))).toBe(new Decimal(a).cmp(new Decimal(b)));
      }),
      { numRuns: 1000 },
    );
  });
});
