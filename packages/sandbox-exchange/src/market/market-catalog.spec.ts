import { parseUnits } from '../engine/units';
import { defaultMarkets } from './default-markets';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  generateMarkets,
  loadMarkets,
  MarketCatalogError,
  marketsFileProblems,
  parseMarkets,
} from './market-catalog';

describe('market catalogue', () => {
  it('has the built-in variety the tests rely on', () => {
    const markets = defaultMarkets();
    expect(markets.length).toBeGreaterThanOrEqual(8);
    const scales = markets.flatMap((m) => [m.priceScale, m.amountScale]);
    expect(Math.min(...scales)).toBe(2);
    expect(Math.max(...scales)).toBe(18);
    expect(markets.filter((m) => m.status === 'Halted')).toHaveLength(1);
    expect(markets.filter((m) => m.status === 'Paused')).toHaveLength(1);
    expect(markets.filter((m) => m.hidden === 1)).toHaveLength(1);
    const precise = markets.find((m) => m.amountScale === 18);
    expect(precise?.typicalAmount.replace('.', '').replace(/^0+/, '').length).toBeGreaterThan(15);
    for (const market of markets) {
      expect(parseUnits(market.initialPrice, market.priceScale)).toBeGreaterThan(0n);
      expect(parseUnits(market.typicalAmount, market.amountScale)).toBeGreaterThanOrEqual(
        parseUnits(market.minAmount, market.amountScale),
      );
    }
  });

  it('generates the same markets for the same seed', () => {
    const first = generateMarkets(50, 7);
    expect(generateMarkets(50, 7)).toEqual(first);
    expect(generateMarkets(50, 8)).not.toEqual(first);
    expect(new Set(first.map((m) => m.instrument)).size).toBe(50);
    expect(
      first.every(
        (m) => m.priceScale >= 2 && m.priceScale <= 18 && m.amountScale >= 2 && m.amountScale <= 18,
      ),
    ).toBe(true);
  });

  it('reads a markets file, filling optional fields', () => {
    const [market] = parseMarkets([
      {
        baseAsset: 'abc',
        quoteAsset: 'usdt',
        priceScale: 4,
        amountScale: 3,
        minAmount: 0.01,
        initialPrice: '1.5',
        typicalAmount: '10',
      },
    ]);
    expect(market).toMatchObject({
      instrument: 'abc_usdt',
      instrumentId: 1,
      status: 'Open',
      hidden: 0,
      minAmount: '0.01',
    });
  });

  it('names every problem of a bad file', () => {
    const bad = [
      {
        baseAsset: 'ABC',
        quoteAsset: 'usdt',
        priceScale: 1,
        amountScale: 3,
        minAmount: '0.0001',
        initialPrice: '0',
        typicalAmount: '1',
        status: 'Closed',
      },
    ];
    try {
      parseMarkets(bad);
      throw new Error('expected a failure');
    } catch (error) {
      expect(error).toBeInstanceOf(MarketCatalogError);
      const text = (error as Error).message;
      for (const fragment of ['lower-case', 'priceScale', 'minAmount', 'initialPrice', 'status'])
        expect(text).toContain(fragment);
    }
  });
});

describe('markets file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'markets-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('names a file that is missing, not JSON, or holds entries that are not objects', () => {
    expect(marketsFileProblems(join(dir, 'missing.json'))).toEqual(['cannot be read: ENOENT']);
    expect(marketsFileProblems(file('broken.json', '[{'))).toEqual([
      expect.stringMatching(/^not valid JSON/),
    ]);
    expect(marketsFileProblems(file('junk.json', '[null, 7]'))).toEqual(
      expect.arrayContaining([
        'market 0 (undefined): must be an object',
        'market 1 (undefined): must be an object',
      ]),
    );
    expect(() => loadMarkets({ file: join(dir, 'missing.json'), seed: 1 })).toThrow(MarketCatalogError);
  });
});
