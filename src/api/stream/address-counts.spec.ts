import { AddressCounts } from './address-counts';

describe('AddressCounts', () => {
  it('holds each address to its most, and frees a place once per release', () => {
    const counts = new AddressCounts(2);
    const first = counts.open('a')!;
    expect(counts.open('a')).toBeDefined();
    expect(counts.open('a')).toBeUndefined();
    expect(counts.open('b')).toBeDefined();
    first();
    first();
    expect(counts.open('a')).toBeDefined();
    expect(counts.open('a')).toBeUndefined();
    expect(counts.size).toBe(2);
  });
});
