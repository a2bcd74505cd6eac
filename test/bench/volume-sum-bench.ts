import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Decimal, DecimalValue, toDecimal } from '../../src/market/decimal';
import { ExactSum } from '../../src/market/exact-sum';
import { percentile } from './bench-process';
import { describeMachine } from './machine';

/**
 * The 24-hour window's running volumes: every trade adds its amount and its price times amount, and
 * takes them away again when it leaves. `ExactSum` (a scaled BigInt) against the same sums kept with
 * decimal objects (big.js, as the domain's other exact arithmetic), on one generated stream of trades,
 * the two taking turns; both must give the same texts, or the run fails.
 *
 *   npm run bench -- --only volume-sum
 *   npm run bench -- --only volume-sum --full      more trades and rounds
 */

interface Sums {
  add(price: string, amount: string): void;
  remove(price: string, amount: string): void;
  texts(): [base: string, quote: string];
}

function exactSums(): Sums {
  const base = new ExactSum();
  const quote = new ExactSum();
  return {
    add: (price, amount) => {
      base.add(amount);
      quote.addProduct(price, amount);
    },
    remove: (price, amount) => {
      base.subtract(amount);
      quote.subtractProduct(price, amount);
    },
    texts: () => [base.toText(), quote.toText()],
  };
}

function decimalObjectSums(): Sums {
  let base: DecimalValue = new Decimal('0');
  let quote: DecimalValue = new Decimal('0');
  return {
    add: (price, amount) => {
      base = base.plus(toDecimal(amount));
      quote = quote.plus(toDecimal(price).times(toDecimal(amount)));
    },
    remove: (price, amount) => {
      base = base.minus(toDecimal(amount));
      quote = quote.minus(toDecimal(price).times(toDecimal(amount)));
    },
    texts: () => [base.toFixed(), quote.toFixed()],
  };
}

/** A stream of (price, amount) texts as a BTC market prints them, from a fixed-seed generator. */
function tradeStream(count: number): { price: string; amount: string }[] {
  let state = 20261126;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return Array.from({ length: count }, () => ({
    price: String(Math.round((60_000 + next() * 5_000) * 100) / 100),
    amount: (Math.round(next() * 2_000_000) / 1e8 + 1e-8).toFixed(8).replace(/0+$/, ''),
  }));
}

/** Every trade enters; once `held` are in, each new one pushes the oldest out. Returns ms taken. */
function run(
  make: () => Sums,
  trades: readonly { price: string; amount: string }[],
  held: number,
): {
  ms: number;
  texts: [string, string];
} {
  const sums = make();
  const started = performance.now();
  for (let i = 0; i < trades.length; i++) {
    sums.add(trades[i].price, trades[i].amount);
    if (i >= held) sums.remove(trades[i - held].price, trades[i - held].amount);
  }
  const texts = sums.texts();
  return { ms: performance.now() - started, texts };
}

function main(): void {
  const { values } = parseArgs({ options: { full: { type: 'boolean', default: false } } });
  const count = values.full ? 1_000_000 : 200_000;
  const rounds = values.full ? 9 : 5;
  const held = 86_400;
  const trades = tradeStream(count);
  const loadAtStart = loadavg()[0];
  run(exactSums, trades.slice(0, 20_000), held);
  run(decimalObjectSums, trades.slice(0, 20_000), held);
  const exactMs: number[] = [];
  const objectMs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [exactSums, decimalObjectSums] : [decimalObjectSums, exactSums];
    const [first, second] = order.map((make) => run(make, trades, held));
    const [exact, objects] = order[0] === exactSums ? [first, second] : [second, first];
    const expected = objects.texts.map((text) => new Decimal(text).toFixed());
    if (exact.texts[0] !== expected[0] || exact.texts[1] !== expected[1])
      throw new Error(`the sums differ: ${exact.texts.join(' ')} against ${expected.join(' ')}`);
    exactMs.push(exact.ms);
    objectMs.push(objects.ms);
    ratios.push(objects.ms / exact.ms);
  }
  const perTrade = (ms: number[]): string => `${((1000 * percentile(ms, 50)) / count).toFixed(2)} us`;
  const lines = [
    '## Running 24-hour volumes',
    '',
    `${new Date().toISOString()}, ${describeMachine()}, load average ${loadAtStart.toFixed(2)} at the start, ` +
      `${loadavg()[0].toFixed(2)} at the end.`,
    `${count.toLocaleString('en')} trades, ${held.toLocaleString('en')} held (each new one pushes the oldest out ` +
      `once the window is full); ${rounds} rounds after a warm-up, the two ways taking turns; medians.`,
    '',
    '| way | per trade (enter and leave) | **decimal objects / exact sum** (min–max of rounds) |',
    '| --- | ---: | --- |',
    `| exact sum (scaled BigInt) | ${perTrade(exactMs)} | **${percentile(ratios, 50).toFixed(2)}** ` +
      `(${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) |`,
    `| decimal objects (big.js) | ${perTrade(objectMs)} | |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
