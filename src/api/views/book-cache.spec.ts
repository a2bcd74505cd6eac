import { PriceLevel } from '../../market/book-update';
import { BookCache, CachedBook } from './book-cache';

const book = (instrument: string, levels: number): CachedBook => {
  const side: PriceLevel[] = Array.from({ length: levels }, (_, index) => [String(index + 1), '1']);
  return {
    view: { instrument, version: 1, updatedAt: 0, syncState: 'live', bids: side, asks: [] },
    fetchedAt: 0,
  };
};

describe('BookCache', () => {
  it('lets the least recently used books go once their levels pass the bound', () => {
    const cache = new BookCache(10);
    cache.set('a', book('a', 4));
    cache.set('b', book('b', 4));
    expect(cache.get('a')).toBeDefined();
    cache.set('c', book('c', 4));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.heldLevels).toBe(8);
  });

  it('counts a replaced book once', () => {
    const cache = new BookCache(10);
    cache.set('a', book('a', 6));
    cache.set('a', book('a', 8));
    expect(cache.size).toBe(1);
    expect(cache.heldLevels).toBe(8);
  });

  it('keeps the book just stored, however deep', () => {
    const cache = new BookCache(10);
    cache.set('a', book('a', 2));
    cache.set('deep', book('deep', 50));
    expect(cache.get('deep')).toBeDefined();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.heldLevels).toBe(50);
  });
});
