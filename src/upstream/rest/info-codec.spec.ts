import { parseExactJson } from '../exact-json';
import { decodeInfo } from './info-codec';
import { MalformedBodyError } from '../malformed-body-error';

/** A market entry as the later captures of the exchange write it, with `overrides` on top. */
function entry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    baseAsset: 'btc',
    quoteAsset: 'usdt',
    minAmount: 0.0001,
    priceDeviation: 0.15,
    hidden: 0,
    makerFee: 0.001,
    makerFeeLimit: 0,
    takerFee: 0.002,
    takerFeeLimit: 0,
    priceScale: 2,
    amountScale: 8,
    createdAt: '2024-03-14T09:26:53.589793',
    updatedAt: '2024-03-15T10:00:00Z',
    status: 'Open',
    side: 'BuySell',
    isCustom: false,
    ...overrides,
  };
}

/** Decodes a body written as JSON text, so that numbers take the same path as on the wire. */
function decode(text: string) {
  return decodeInfo(parseExactJson(text));
}

function body(pairs: Record<string, unknown>, serverTime = '638460052135890000'): string {
  return `{"serverTime":${serverTime},"pairs":${JSON.stringify(pairs)}}`;
}

describe('decodeInfo', () => {
  it('decodes every field of a market', () => {
    const info = decode(body({ btc_usdt: entry() }));
    expect(info.markets).toEqual([
      {
        instrument: 'btc_usdt',
        baseAsset: 'btc',
        quoteAsset: 'usdt',
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
        updatedAt: '2024-03-15T10:00:00Z',
      },
    ]);
    expect(info.skipped).toEqual([]);
  });

  it('decodes the 2019 sample, which lacks the later fields', () => {
    const info = decode(
      '{"serverTime":636880696809972288,"pairs":{"btc_usdt":{"baseAsset":"btc","quoteAsset":"usdt","minPrice":0,' +
        '"maxPrice":0,"minAmount":0,"hidden":0,"fee":0,"makerFee":0,"makerFeeLimit":0,"takerFee":0.001,' +
        '"takerFeeLimit":0,"priceScale":6,"amountScale":6,"createdAt":"2019-11-14T16:18:49.253354",' +
        '"updatedAt":"2019-11-14T16:18:49.253354"}}}',
    );
    expect(info.serverTime).toBe(Date.parse('2019-03-13T10:28:00.997Z'));
    expect(info.markets[0]).toMatchObject({
      minAmount: '0',
      priceDeviation: '0',
      makerFee: '0',
      takerFee: '0.001',
      status: 'Open',
      side: 'BuySell',
      isCustom: false,
      createdAt: '2019-11-14T16:18:49.253354Z',
    });
  });

  describe('serverTime', () => {
    it('converts .NET ticks beyond 2^53 exactly, dropping the fraction of a millisecond', () => {
      // 9999 ticks past a whole millisecond: through a float this would round up to the next one.
      expect(decode(body({}, '638460052135899999')).serverTime).toBe(1710408413589);
      expect(decode(body({}, '638460052135890000')).serverTime).toBe(1710408413589);
      expect(decode(body({}, '621355968000000000')).serverTime).toBe(0);
    });

    it('accepts ticks written as a string', () => {
      expect(decode(body({}, '"638460052135890000"')).serverTime).toBe(1710408413589);
    });

    it.each([['-1'], ['6.3846005213589e17'], ['"soon"'], ['null'], ['99999999999999999999999']])(
      'rejects %s',
      (serverTime) => {
        expect(() => decode(body({}, serverTime))).toThrow(MalformedBodyError);
      },
    );
  });

  it('rejects bodies that are not the documented shape', () => {
    expect(() => decode('[]')).toThrow(MalformedBodyError);
    expect(() => decode('{"serverTime":638460052135890000}')).toThrow(/pairs: expected an object/);
    expect(() => decode('{"serverTime":638460052135890000,"pairs":[]}')).toThrow(MalformedBodyError);
  });

  it('keeps amounts and fees with 18 decimals exact, and canonicalizes number and string forms', () => {
    const info = decode(
      body({
        pepe_eth: entry({
          baseAsset: 'pepe',
          quoteAsset: 'eth',
          priceScale: '18',
          amountScale: 18,
          minAmount: '0.000000000000000001',
          makerFee: '0.123456789012345678',
          takerFee: '1e-7',
          priceDeviation: '0.2500',
        }),
      }).replace('"0.123456789012345678"', '0.123456789012345678'),
    );
    expect(info.markets[0]).toMatchObject({
      priceScale: 18,
      amountScale: 18,
      minAmount: '0.000000000000000001',
      makerFee: '0.123456789012345678',
      takerFee: '0.0000001',
      priceDeviation: '0.25',
    });
  });

  it.each([
    ['Open', 'Open'],
    ['open', 'Open'],
    ['HALTED', 'Halted'],
    ['paused', 'Paused'],
    [0, 'Open'],
    ['Maintenance', 'Maintenance'],
    [undefined, 'Open'],
  ])('normalizes status %p to %p', (status, expected) => {
    expect(decode(body({ btc_usdt: entry({ status }) })).markets[0].status).toBe(expected);
  });

  it('reads hidden, isCustom and side in their variants', () => {
    const markets = decode(
      body({
        a_b: entry({ baseAsset: 'a', quoteAsset: 'b', hidden: 1, isCustom: true, side: 'sell' }),
        c_d: entry({ baseAsset: 'c', quoteAsset: 'd', hidden: true, isCustom: undefined, side: undefined }),
        e_f: entry({ baseAsset: 'e', quoteAsset: 'f', hidden: false, side: 'Both' }),
      }),
    ).markets;
    expect(markets.map(({ hidden, isCustom, side }) => ({ hidden, isCustom, side }))).toEqual([
      { hidden: true, isCustom: true, side: 'Sell' },
      { hidden: true, isCustom: false, side: 'BuySell' },
      { hidden: false, isCustom: false, side: 'Both' },
    ]);
  });

  it('lower-cases assets and instruments whatever case the exchange used', () => {
    const market = decode(body({ BTC_USDT: entry({ baseAsset: 'BTC', quoteAsset: 'Usdt' }) })).markets[0];
    expect(market).toMatchObject({ instrument: 'btc_usdt', baseAsset: 'btc', quoteAsset: 'usdt' });
  });

  it('skips and reports malformed markets without losing the others', () => {
    const info = decode(
      body({
        btc_usdt: entry(),
        eth_usdt: entry({ baseAsset: 'eth', minAmount: undefined }),
        sol_usdt: entry({ baseAsset: 'sol', priceScale: 19 }),
        xrp_usdt: entry({ baseAsset: 'xrp', createdAt: 'yesterday' }),
        ltc_usdt: entry({ baseAsset: 'doge' }),
        ada_usdt: 'not a market',
        dot_usdt: entry({ baseAsset: 'dot', makerFee: -0.001 }),
        bnb_usdt: entry({ baseAsset: 'bnb', hidden: 2 }),
        eth_btc: entry({ baseAsset: 'eth', quoteAsset: 'btc', updatedAt: '2024-02-30T00:00:00' }),
        usdc_usdt: entry({ baseAsset: 'usdc' }),
      }),
    );
    expect(info.markets.map((market) => market.instrument)).toEqual(['btc_usdt', 'usdc_usdt']);
    expect(info.skipped).toEqual([
      {
        key: 'eth_usdt',
        problem: 'pairs.eth_usdt.minAmount: expected a non-negative decimal number, got nothing',
      },
      { key: 'sol_usdt', problem: 'pairs.sol_usdt.priceScale: expected an integer from 0 to 18, got "19"' },
      { key: 'xrp_usdt', problem: expect.stringContaining('pairs.xrp_usdt.createdAt') },
      { key: 'ltc_usdt', problem: expect.stringContaining('baseAsset_quoteAsset (doge_usdt)') },
      { key: 'ada_usdt', problem: 'pairs.ada_usdt: expected an object, got "not a market"' },
      { key: 'dot_usdt', problem: expect.stringContaining('pairs.dot_usdt.makerFee') },
      { key: 'bnb_usdt', problem: expect.stringContaining('pairs.bnb_usdt.hidden') },
      { key: 'eth_btc', problem: expect.stringContaining('pairs.eth_btc.updatedAt') },
    ]);
  });

  it('keeps the first of two entries that name the same market in different case', () => {
    const info = decode(body({ btc_usdt: entry(), BTC_USDT: entry({ minAmount: 1 }) }));
    expect(info.markets).toHaveLength(1);
    expect(info.markets[0].minAmount).toBe('0.0001');
    expect(info.skipped).toEqual([
      { key: 'BTC_USDT', problem: 'pairs.BTC_USDT: a second entry for btc_usdt' },
    ]);
  });
});
