import fc from 'fast-check';
import { PriceLevel } from '../book-update';
import { bookChecksum, CHECKSUM_DEPTH, checksumText } from './book-checksum';

/** CRC-32 (reflected polynomial 0xEDB88320) one bit at a time over the UTF-8 bytes, signed. */
function bitwiseCrc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) | 0;
}

const levels = (...pairs: [string, string][]): PriceLevel[] => pairs;

describe('book checksum', () => {
  it('uses the IEEE polynomial, signed: the check value of "123456789"', () => {
    expect(bitwiseCrc32('123456789') >>> 0).toBe(0xcbf43926);
    expect(bitwiseCrc32('123456789')).toBe(-873187034);
  });

  it('interleaves bid and ask of each level, best first', () => {
    const bids = levels(['100.50', '0.250'], ['100.00', '3.000']);
    const asks = levels(['101.00', '1.000'], ['102.00', '0.500']);
    expect(checksumText(bids, asks)).toBe('100.50:0.250:101.00:1.000:100.00:3.000:102.00:0.500');
    expect(bookChecksum(bids, asks)).toBe(-521239281);
  });

  it('writes the texts as given, trailing zeros included', () => {
    expect(checksumText(levels(['0.10', '1.5']), levels(['0.20', '2']))).toBe('0.10:1.5:0.20:2');
    expect(bookChecksum(levels(['0.10', '1.5']), levels(['0.20', '2']))).toBe(-66566687);
  });

  it('lets the longer side continue alone once the other runs out', () => {
    const bids = levels(['100.50', '0.250'], ['100.00', '3.000'], ['99.50', '7.000']);
    const asks = levels(['101.00', '1.000']);
    expect(checksumText(bids, asks)).toBe('100.50:0.250:101.00:1.000:100.00:3.000:99.50:7.000');
    expect(checksumText(asks, bids)).toBe('101.00:1.000:100.50:0.250:100.00:3.000:99.50:7.000');
  });

  it('covers a one-sided book', () => {
    const bids = levels(['100.50', '0.250'], ['100.00', '3.000'], ['99.50', '7.000']);
    expect(checksumText(levels(), bids)).toBe('100.50:0.250:100.00:3.000:99.50:7.000');
    expect(bookChecksum(levels(), bids)).toBe(-1086519836);
  });

  it('is 0 for an empty book (the CRC of no bytes)', () => {
    expect(checksumText([], [])).toBe('');
    expect(bookChecksum([], [])).toBe(0);
  });

  it(`covers only the first ${CHECKSUM_DEPTH} levels of each side`, () => {
    const side = (from: number, count: number) =>
      Array.from({ length: count }, (_, i): PriceLevel => [`${from + i}`, '1']);
    const deep = bookChecksum(side(100, CHECKSUM_DEPTH + 5), side(500, CHECKSUM_DEPTH + 1));
    expect(deep).toBe(bookChecksum(side(100, CHECKSUM_DEPTH), side(500, CHECKSUM_DEPTH)));
    expect(deep).not.toBe(bookChecksum(side(100, CHECKSUM_DEPTH - 1), side(500, CHECKSUM_DEPTH)));
  });

  it('matches a bitwise CRC-32 over the joined fields of any book', () => {
    const decimal = fc
      .tuple(fc.nat({ max: 1_000_000 }), fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 8 }))
      .map(([integer, fraction]) => (fraction === '' ? `${integer}` : `${integer}.${fraction}`));
    const side = fc.array(fc.tuple(decimal, decimal), { maxLength: CHECKSUM_DEPTH + 10 });
    fc.assert(
      fc.property(side, side, (bids, asks) => {
        const fields: string[] = [];
        for (let i = 0; i < CHECKSUM_DEPTH; i++) {
          for (const level of [bids[i], asks[i]]) if (level !== undefined) fields.push(...level);
        }
        expect(bookChecksum(bids, asks)).toBe(bitwiseCrc32(fields.join(':')));
      }),
      { numRuns: 500 },
    );
  });
});
