import fc from 'fast-check';
import { AssetOverride, joinCatalog } from './catalog-join';
import type { GatewayInstrument, GatewayProduct } from './gateway-records';
import { MarketInfo } from './market-info';

const NOW = 1_710_408_413_589;

function market(baseAsset: string, quoteAsset: string, overrides: Partial<MarketInfo> = {}): MarketInfo {
  return {
    instrument: `${baseAsset}_${quoteAsset}`.toLowerCase(),
    baseAsset,
    quoteAsset,
    priceScale: 2,
    amountScale: 8,
    minAmount: '0.0001',
    priceDeviation: '0.15',
    makerFee: '0.001',
    takerFee: '0.002',
    hidden: false,
    status: 'Open',
    side: 'BuySell',
    isCustom: false,
    createdAt: '2024-03-14T09:26:53.589793Z',
    updatedAt: '2024-03-14T09:26:53.589793Z',
    ...overrides,
  };
}

function instrument(
  instrumentId: number,
  symbol: string,
  baseSymbol: string,
  quoteSymbol: string,
): GatewayInstrument {
  return { instrumentId, symbol, baseSymbol, quoteSymbol, sessionStatus: 'Running' };
}

function product(productId: number, symbol: string, fullName?: string): GatewayProduct {
  return { productId, symbol, fullName, decimalPlaces: 8 };
}

const NO_OVERRIDES = new Map<string, AssetOverride>();

describe('joinCatalog', () => {
  it('keys markets by base_quote, sorted, and matches gateway instruments by product symbols in any case', () => {
    const catalog = joinCatalog(
      [market('eth', 'btc'), market('btc', 'usdt')],
      [
        instrument(1, 'BTCUSDT', 'BTC', 'USDT'),
        instrument(2, 'ETHBTC', 'eth', 'Btc'),
        instrument(3, 'BTCEUR', 'BTC', 'EUR'),
      ],
      [],
      NO_OVERRIDES,
      NOW,
    );
    expect(catalog.refreshedAt).toBe(NOW);
    expect(catalog.markets.map((entry) => [entry.instrument, entry.gateway])).toEqual([
      ['btc_usdt', { instrumentId: 1, symbol: 'BTCUSDT' }],
      ['eth_btc', { instrumentId: 2, symbol: 'ETHBTC' }],
    ]);
  });

  it('keeps every other field of the market as decoded', () => {
    const source = market('pepe', 'eth', {
      priceScale: 18,
      amountScale: 18,
      minAmount: '0.000000000000000001',
    });
    const [joined] = joinCatalog([source], [], [], NO_OVERRIDES, NOW).markets;
    expect(joined).toEqual(source);
    expect(joined).not.toHaveProperty('gateway');
  });

  it('falls back to the run-together symbol when product symbols do not match, and prefers the lowest id', () => {
    const catalog = joinCatalog(
      [market('sol', 'eur'), market('xrp', 'usdt')],
      [
        instrument(9, 'SOL_EUR', '', ''),
        instrument(7, 'soleur', '?', '?'),
        instrument(12, 'XRPUSDT', 'XRP', 'USDT'),
        instrument(11, 'XRP/USDT', 'XRP', 'USDT'),
      ],
      [],
      NO_OVERRIDES,
      NOW,
    );
    expect(catalog.markets.map((entry) => entry.gateway)).toEqual([
      { instrumentId: 7, symbol: 'soleur' },
      { instrumentId: 11, symbol: 'XRP/USDT' },
    ]);
  });

  it('does not take an instrument of other products whose symbols only look alike', () => {
    const catalog = joinCatalog(
      [market('btc', 'usdt')],
      [instrument(1, 'BTCUSD', 'BTC', 'USD')],
      [],
      NO_OVERRIDES,
      NOW,
    );
    expect(catalog.markets[0].gateway).toBeUndefined();
  });

  it('keeps product symbols apart: AB and C is not A and BC', () => {
    const catalog = joinCatalog(
      [market('a', 'bc')],
      [instrument(1, 'ABC', 'AB', 'C'), instrument(2, 'A-BC', 'A', 'BC')],
      [],
      NO_OVERRIDES,
      NOW,
    );
    expect(catalog.markets[0].gateway).toEqual({ instrumentId: 2, symbol: 'A-BC' });
  });

  it('matches every market as a scan of all instruments by the rule would', () => {
    const symbol = fc.constantFrom('a', 'B', 'ab', 'AB', 'c', 'bc', 'Bc');
    const drawnInstrument = fc.record({
      instrumentId: fc.integer({ min: 1, max: 20 }),
      symbol: fc
        .tuple(symbol, fc.constantFrom('', '_', '-', '/'), symbol)
        .map(([base, separator, quote]) => base + separator + quote),
      baseSymbol: symbol,
      quoteSymbol: symbol,
      sessionStatus: fc.constant('Running'),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(symbol, symbol)), fc.array(drawnInstrument), (pairs, instruments) => {
        const catalog = joinCatalog(
          pairs.map(([base, quote]) => market(base, quote)),
          instruments,
          [],
          NO_OVERRIDES,
          NOW,
        );
        for (const joined of catalog.markets) {
          expect(joined.gateway?.instrumentId).toBe(scanForInstrument(joined, instruments)?.instrumentId);
        }
      }),
    );
  });

  it('replaces a gateway match the market already carried', () => {
    const stale = market('btc', 'usdt', { gateway: { instrumentId: 99, symbol: 'OLD' } });
    expect(joinCatalog([stale], [], [], NO_OVERRIDES, NOW).markets[0].gateway).toBeUndefined();
    expect(
      joinCatalog([stale], [instrument(1, 'BTCUSDT', 'BTC', 'USDT')], [], NO_OVERRIDES, NOW).markets[0]
        .gateway,
    ).toEqual({
      instrumentId: 1,
      symbol: 'BTCUSDT',
    });
  });

  it('keeps hidden, halted and paused markets, with their flags', () => {
    const catalog = joinCatalog(
      [
        market('doge', 'usdt', { hidden: true }),
        market('ltc', 'btc', { status: 'Halted' }),
        market('xrp', 'usdt', { status: 'Paused' }),
      ],
      [],
      [],
      NO_OVERRIDES,
      NOW,
    );
    expect(catalog.markets.map(({ instrument: id, hidden, status }) => [id, hidden, status])).toEqual([
      ['doge_usdt', true, 'Open'],
      ['ltc_btc', false, 'Halted'],
      ['xrp_usdt', false, 'Paused'],
    ]);
    expect(catalog.assets.map((asset) => asset.symbol)).toEqual(['BTC', 'DOGE', 'LTC', 'USDT', 'XRP']);
  });

  it('keeps the first of two markets with the same key', () => {
    const catalog = joinCatalog(
      [market('BTC', 'usdt', { minAmount: '1' }), market('btc', 'USDT')],
      [],
      [],
      NO_OVERRIDES,
      NOW,
    );
    expect(catalog.markets).toHaveLength(1);
    expect(catalog.markets[0]).toMatchObject({ instrument: 'btc_usdt', minAmount: '1' });
  });

  it('lists each base and quote asset once, upper case, named from the file, then the gateway, then the symbol', () => {
    const overrides = new Map<string, AssetOverride>([
      [
        'BTC',
        {
          name: 'Bitcoin',
          unifiedCryptoassetId: 1,
          canWithdraw: false,
          minWithdraw: '0.001',
          maxWithdraw: '100',
          makerFee: '0.001',
          takerFee: '0.002',
        },
      ],
      ['ETH', { canDeposit: false, maxWithdraw: undefined }],
      ['ADA', { name: 'Cardano' }],
    ]);
    const catalog = joinCatalog(
      [market('btc', 'usdt'), market('eth', 'btc'), market('sol', 'usdt')],
      [],
      [
        product(1, 'btc', 'Bitcoin (gateway)'),
        product(2, 'ETH', 'Ether'),
        product(3, 'USDT', '  '),
        product(4, 'Eth', 'Ethereum'),
      ],
      overrides,
      NOW,
    );
    expect(catalog.assets).toEqual([
      {
        symbol: 'BTC',
        name: 'Bitcoin',
        unifiedCryptoassetId: 1,
        canWithdraw: false,
        minWithdraw: '0.001',
        maxWithdraw: '100',
        makerFee: '0.001',
        takerFee: '0.002',
      },
      { symbol: 'ETH', name: 'Ether', canDeposit: false },
      { symbol: 'SOL', name: 'SOL' },
      { symbol: 'USDT', name: 'USDT' },
    ]);
    // Nothing the file left out is made up, not even as an undefined key.
    expect(Object.keys(catalog.assets[1])).toEqual(['symbol', 'name', 'canDeposit']);
  });

  it('gives an empty catalogue for no markets', () => {
    expect(
      joinCatalog(
        [],
        [instrument(1, 'BTCUSDT', 'BTC', 'USDT')],
        [product(1, 'BTC', 'Bitcoin')],
        NO_OVERRIDES,
        NOW,
      ),
    ).toEqual({
      markets: [],
      assets: [],
      refreshedAt: NOW,
    });
  });
});

/** The matching rule read literally, over every instrument: the reference for the indexed join. */
function scanForInstrument(
  market: MarketInfo,
  instruments: readonly GatewayInstrument[],
): GatewayInstrument | undefined {
  const [base, quote] = [market.baseAsset.toUpperCase(), market.quoteAsset.toUpperCase()];
  const lowestId = (candidates: GatewayInstrument[]) =>
    candidates.reduce<GatewayInstrument | undefined>(
      (lowest, candidate) => (lowest && lowest.instrumentId <= candidate.instrumentId ? lowest : candidate),
      undefined,
    );
  return (
    lowestId(
      instruments.filter(
        (entry) => entry.baseSymbol.toUpperCase() === base && entry.quoteSymbol.toUpperCase() === quote,
      ),
    ) ??
    lowestId(instruments.filter((entry) => entry.symbol.toUpperCase().replace(/[-_/]/g, '') === base + quote))
  );
}
