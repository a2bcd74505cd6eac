import { canonicalDecimal } from '../../decimal';
import { Trade } from '../../trade';

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so that a failing case can be run again. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * `count` trades from `from` to `to` (oldest first, some in the same millisecond), with prices and
 * amounts of up to 12 decimals, and quiet stretches without a trade.
 */
export function randomTrades(seed: number, count: number, from: number, to: number): Trade[] {
  const random = seededRandom(seed);
  const times: number[] = [];
  while (times.length < count) {
    const time = from + Math.floor(random() * (to - from));
    // Every fourth hour is quiet, so that bars are missing where there was no trade.
    if (Math.floor(time / 3_600_000) % 4 !== 1) times.push(time);
  }
  times.sort((a, b) => a - b);
  return times.map((time, index) => ({
    id: String(1_000 + index),
    instrument: 'btc_usdt',
    price: decimal(random, 5),
    amount: decimal(random, 3),
    side: random() < 0.5 ? 'buy' : 'sell',
    time,
  }));
}

function decimal(random: () => number, integerDigits: number): string {
  const scale = Math.floor(random() * 13);
  const units = 1 + Math.floor(random() * 10 ** integerDigits * 10 ** Math.min(scale, 6));
  const text = String(units).padStart(scale + 1, '0');
  return canonicalDecimal(scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`);
}
