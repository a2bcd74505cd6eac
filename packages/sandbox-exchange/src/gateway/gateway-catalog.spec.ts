import { toJson } from '../http/json-number';
import { defaultMarkets } from '../market/default-markets';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { GatewayCatalog } from './gateway-catalog';
import { GatewayCallError, GatewayErrorCode } from './gateway-result';
import { SessionStatusBook } from './session-status';

function sandbox(now = Date.UTC(2025, 0, 2)) {
  let time = now;
  const exchange = new SandboxExchange({
    markets: defaultMarkets(),
    seed: 1,
    flowRate: 0,
    historyHours: 0,
    restingOrders: 4,
    clock: { now: () => time },
  });
  const statuses = new SessionStatusBook(exchange);
  return {
    exchange,
    statuses,
    catalog: new GatewayCatalog(exchange, statuses),
    advance: (ms: number) => (time += ms),
  };
}

describe('gateway catalogue', () => {
  it('describes every market as an instrument with its products and session status', () => {
    const { catalog } = sandbox();
    const instruments = catalog.instruments();
    expect(instruments).toHaveLength(defaultMarkets().length);
    expect(instruments[0]).toEqual({
      OMSId: 1,
      InstrumentId: 1,
      Symbol: 'BTCUSDT',
      Product1: 1,
      Product1Symbol: 'BTC',
      Product2: 2,
      Product2Symbol: 'USDT',
      InstrumentType: 'Standard',
      VenueInstrumentId: 1,
      VenueId: 1,
      SortIndex: 0,
      SessionStatus: 'Running',
      PreviousSessionStatus: 'Unknown',
      SessionStatusDateTime: '2025-01-02T00:00:00.000Z',
      SelfTradePrevention: false,
      QuantityIncrement: 8,
    });
    const bySymbol = new Map(instruments.map((instrument) => [instrument.Symbol, instrument]));
    expect(bySymbol.get('LTCBTC')?.SessionStatus).toBe('Stopped');
    expect(bySymbol.get('XRPUSDT')?.SessionStatus).toBe('Paused');
    expect(bySymbol.get('PEPEETH')?.QuantityIncrement).toBe(8);
    expect(bySymbol.get('SHIBUSDT')?.QuantityIncrement).toBe(2);
  });

  it('gives each asset one product with room for every scale it is used with', () => {
    const { catalog } = sandbox();
    const products = new Map(catalog.productRecords().map((product) => [product.Product, product]));
    expect(products.size).toBe(new Set(defaultMarkets().flatMap((m) => [m.baseAsset, m.quoteAsset])).size);
    // eth: amount scale 6 in eth_btc, 5 in eth_usdt, price scale 18 as the quote of pepe_eth
    expect(products.get('ETH')?.DecimalPlaces).toBe(18);
    // btc: amount scale 8 in btc_usdt, price scale 8 in eth_btc, 7 in ltc_btc
    expect(products.get('BTC')?.DecimalPlaces).toBe(8);
    expect(toJson(products.get('BTC'))).toBe(
      '{"OMSId":1,"ProductId":1,"Product":"BTC","ProductFullName":"BTC","ProductType":"CryptoCurrency",' +
        '"DecimalPlaces":8,"TickSize":0.00000001,"NoFees":false}',
    );
    expect(products.get('EUR')?.ProductType).toBe('NationalCurrency');
    const ids = [...products.values()].map((product) => product.ProductId);
    expect(ids).toEqual(ids.map((_, index) => index + 1));
  });

  it('follows status changes with the previous status and the time of the change', () => {
    const { exchange, catalog, advance } = sandbox();
    advance(90_000);
    exchange.faults.set('halt-market', true, { instrument: 'btc_usdt' });
    expect(catalog.instruments()[0]).toMatchObject({
      SessionStatus: 'Stopped',
      PreviousSessionStatus: 'Running',
      SessionStatusDateTime: '2025-01-02T00:01:30.000Z',
    });
    exchange.faults.set('halt-market', false);
    expect(catalog.instruments()[0]).toMatchObject({
      SessionStatus: 'Running',
      PreviousSessionStatus: 'Stopped',
    });
  });

  it('finds a market by InstrumentId or by symbol in either spelling', () => {
    const { catalog } = sandbox();
    expect(catalog.resolve({ InstrumentId: 2 }).instrument).toBe('eth_btc');
    expect(catalog.resolve({ InstrumentId: '2' }).instrument).toBe('eth_btc');
    expect(catalog.resolve({ Symbol: 'ETHBTC' }).instrument).toBe('eth_btc');
    expect(catalog.resolve({ Symbol: 'ethbtc' }).instrument).toBe('eth_btc');
    expect(catalog.resolve({ Symbol: 'eth_btc' }).instrument).toBe('eth_btc');
    const code = (payload: Record<string, unknown>) => {
      try {
        catalog.resolve(payload);
      } catch (error) {
        return (error as GatewayCallError).code;
      }
      return undefined;
    };
    expect(code({ InstrumentId: 999 })).toBe(GatewayErrorCode.ResourceNotFound);
    expect(code({ Symbol: 'NOPE' })).toBe(GatewayErrorCode.ResourceNotFound);
    expect(code({ OMSId: 1 })).toBe(GatewayErrorCode.InvalidRequest);
    expect(code({ InstrumentId: 1.5 })).toBe(GatewayErrorCode.InvalidRequest);
  });
});
