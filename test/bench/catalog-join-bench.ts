import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { joinCatalog } from '../../src/market/catalog-join';
import type { GatewayInstrument, GatewayProduct } from '../../src/market/gateway-records';
import { MarketInfo } from '../../src/market/market-info';
import { percentile } from './bench-process';
import { describeMachine } from './machine';

/**
 * The market catalogue's join at exchange scale: the exchange's markets, the gateway's instruments
 * and products, each market matched to its instrument. The time a market at each count, against the
 * smallest count in the same run: a join that grows with the markets alone stays near 1.
 *
 *   npm run bench -- --only catalog-join
 *   npm run bench -- --only catalog-join --full      up to 20,000 markets
 */

const QUOTES = ['usdt', 'btc', 'eth', 'eur'];

function inputs(count: number): [MarketInfo[], GatewayInstrument[], GatewayProduct[]] {
  const markets: MarketInfo[] = [];
  const instruments: GatewayInstrument[] = [];
  const products: GatewayProduct[] = [];
  for (let i = 0; i < count; i++) {
    const [base, quote] = [`c${String(i).padStart(5, '0')}`, QUOTES[i % QUOTES.length]];
    markets.push({
      instrument: `${base}_${quote}`,
      baseAsset: base,
      quoteAsset: quote,
      priceScale: 2,
      amountScale: 6,
      minAmount: '0.0001',
      priceDeviation: '0',
      makerFee: '0.001',
      takerFee: '0.002',
      hidden: false,
      status: 'Open',
      side: 'BuySell',
      isCustom: false,
      createdAt: '',
      updatedAt: '',
    });
    // Every tenth instrument only by its run-together symbol, as some gateways list them.
    const [baseSymbol, quoteSymbol] = i % 10 === 0 ? ['', ''] : [base.toUpperCase(), quote.toUpperCase()];
    instruments.push({
      instrumentId: count - i,
      symbol: `${base}${quote}`.toUpperCase(),
      baseSymbol,
      quoteSymbol,
      sessionStatus: 'Running',
    });
    products.push({ productId: i + 1, symbol: base.toUpperCase(), fullName: `Coin ${i}`, decimalPlaces: 8 });
  }
  return [markets, instruments, products];
}

function main(): void {
  const { values } = parseArgs({ options: { full: { type: 'boolean', default: false } } });
  const counts = values.full ? [500, 5_000, 20_000] : [500, 5_000];
  const rounds = values.full ? 9 : 5;
  const loadAtStart = loadavg()[0];
  const rows = counts.map((count) => {
    const [markets, instruments, products] = inputs(count);
    const join = () => joinCatalog(markets, instruments, products, new Map(), 0);
    join();
    const ms: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = process.cpuUsage();
      const catalog = join();
      const used = process.cpuUsage(started);
      ms.push((used.user + used.system) / 1000);
      const matched = catalog.markets.filter((market) => market.gateway).length;
      if (matched !== count) throw new Error(`${matched} of ${count} markets matched`);
    }
    return { count, ms: percentile(ms, 50) };
  });
  const perMarket = (row: { count: number; ms: number }) => (1000 * row.ms) / row.count;
  const lines = [
    '## The market catalogue join',
    '',
    `${new Date().toISOString()}, ${describeMachine()}, load average ${loadAtStart.toFixed(2)} at the start, ` +
      `${loadavg()[0].toFixed(2)} at the end.`,
    `${rounds} rounds after a warm-up at each count; medians of process CPU.`,
    '',
    `| markets | join, CPU ms | a market | **a market / at ${counts[0].toLocaleString('en')}** |`,
    '| ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.count.toLocaleString('en')} | ${row.ms.toFixed(1)} | ${perMarket(row).toFixed(2)} us | ` +
        `**${(perMarket(row) / perMarket(rows[0])).toFixed(2)}** |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
