import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ownText } from './own-text';

/**
 * Heap bytes held after a full collection by 200 prices, each cut from a frame of 100 KB of its own,
 * as they are and through ownText. Measured in a fresh process: in a test worker, code and caches
 * of earlier suites age out over several collections and once freed more than the frames weigh
 * between the two readings.
 */
function heldByPrices(): { sliced: number; owned: number; samePrices: boolean } {
  const script = `
    const { ownText } = require(${JSON.stringify(require.resolve('./own-text'))});
    function held(keep) {
      gc();
      const before = process.memoryUsage().heapUsed;
      const prices = [];
      for (let i = 0; i < 200; i++) {
        // Flat, as a frame decoded from a websocket buffer is (a concatenated string would be sliced otherwise).
        const frame = Buffer.from('{"price":12345.678901234' + (i % 10) + ',"padding":"' + 'x'.repeat(100000) + '"}').toString();
        prices.push(keep(frame.slice(9, 9 + 16)));
      }
      gc();
      return { bytes: process.memoryUsage().heapUsed - before, prices };
    }
    const sliced = held((price) => price);
    const owned = held(ownText);
    process.stdout.write(JSON.stringify({
      sliced: sliced.bytes,
      owned: owned.bytes,
      samePrices: JSON.stringify(sliced.prices) === JSON.stringify(owned.prices),
    }));
  `;
  const register = join(__dirname, '../../test/bench/swc-register.js');
  const output = execFileSync(process.execPath, ['--expose-gc', '-r', register, '-e', script], {
    encoding: 'utf8',
  });
  return JSON.parse(output) as { sliced: number; owned: number; samePrices: boolean };
}

describe('ownText', () => {
  it('keeps the text and nothing of the string it was cut from', () => {
    const held = heldByPrices();
    expect(held.samePrices).toBe(true);
    // 200 frames of about 100 KB each stay alive behind the slices; the own copies hold a few KB.
    expect(held.sliced).toBeGreaterThan(15_000_000);
    expect(held.owned).toBeLessThan(2_000_000);
  });

  it('returns short texts as they are: V8 copies those already', () => {
    expect(ownText('0.5')).toBe('0.5');
    expect(ownText('')).toBe('');
  });
});
