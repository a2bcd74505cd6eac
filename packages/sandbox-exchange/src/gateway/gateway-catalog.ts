import { jsonNumber, JsonNumber } from '../http/json-number';
import { MarketSimulator } from '../simulation/market-simulator';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { Payload } from './frame-codec';
import { GatewayCallError, GatewayErrorCode } from './gateway-result';
import { optionalInteger, optionalString } from './payload-fields';
import { SessionStatus, SessionStatusBook } from './session-status';

/** The gateway's OMS id: one order management system, 1 as in every sample. */
export const OMS_ID = 1;

/** Decimal places of a quantity increment, per spec at most 8. */
const MAX_QUANTITY_INCREMENT = 8;

const NATIONAL_CURRENCIES: ReadonlySet<string> = new Set([
  'aud',
  'brl',
  'cad',
  'chf',
  'cny',
  'eur',
  'gbp',
  'inr',
  'jpy',
  'krw',
  'kzt',
  'pln',
  'rub',
  'try',
  'uah',
  'usd',
]);

export type ProductType = 'Unknown' | 'NationalCurrency' | 'CryptoCurrency' | 'Contract';

/** GetInstruments element (spec 2.10). */
export interface InstrumentRecord {
  readonly OMSId: number;
  readonly InstrumentId: number;
  readonly Symbol: string;
  readonly Product1: number;
  readonly Product1Symbol: string;
  readonly Product2: number;
  readonly Product2Symbol: string;
  readonly InstrumentType: 'Standard';
  readonly VenueInstrumentId: number;
  readonly VenueId: number;
  readonly SortIndex: number;
  readonly SessionStatus: SessionStatus;
  readonly PreviousSessionStatus: SessionStatus;
  readonly SessionStatusDateTime: string;
  readonly SelfTradePrevention: boolean;
  readonly QuantityIncrement: number;
}

/** GetProducts element (spec 2.10). */
export interface ProductRecord {
  readonly OMSId: number;
  readonly ProductId: number;
  readonly Product: string;
  readonly ProductFullName: string;
  readonly ProductType: ProductType;
  readonly DecimalPlaces: number;
  readonly TickSize: JsonNumber;
  readonly NoFees: boolean;
}

interface Product {
  readonly id: number;
  readonly asset: string;
  decimalPlaces: number;
}

/**
 * The gateway's view of the markets: instruments with their gateway symbols (`BTCUSDT`) and one
 * product per asset. Product ids follow the order in which assets first appear in the markets; an
 * asset's DecimalPlaces is the largest scale it is used with (amount scale as a base, price scale as
 * a quote), so that every price and amount of the asset fits.
 */
export class GatewayCatalog {
  private readonly products = new Map<string, Product>();
  private readonly bySymbol = new Map<string, MarketSimulator>();

  constructor(
    private readonly exchange: SandboxExchange,
    private readonly statuses: SessionStatusBook,
  ) {
    for (const market of exchange.all()) {
      const { baseAsset, quoteAsset, amountScale, priceScale, instrument } = market.spec;
      this.addProduct(baseAsset, amountScale);
      this.addProduct(quoteAsset, priceScale);
      for (const symbol of [gatewaySymbol(market), instrument.toUpperCase()]) {
        if (!this.bySymbol.has(symbol)) this.bySymbol.set(symbol, market);
      }
    }
  }

  instruments(): InstrumentRecord[] {
    return this.exchange.all().map((market, index) => {
      const { instrumentId, baseAsset, quoteAsset, amountScale } = market.spec;
      const status = this.statuses.of(instrumentId);
      return {
        OMSId: OMS_ID,
        InstrumentId: instrumentId,
        Symbol: gatewaySymbol(market),
        Product1: this.productId(baseAsset),
        Product1Symbol: baseAsset.toUpperCase(),
        Product2: this.productId(quoteAsset),
        Product2Symbol: quoteAsset.toUpperCase(),
        InstrumentType: 'Standard',
        VenueInstrumentId: instrumentId,
        VenueId: 1,
        SortIndex: index,
        SessionStatus: status.current,
        PreviousSessionStatus: status.previous,
        SessionStatusDateTime: status.since,
        SelfTradePrevention: false,
        QuantityIncrement: Math.min(amountScale, MAX_QUANTITY_INCREMENT),
      };
    });
  }

  productRecords(): ProductRecord[] {
    return [...this.products.values()].map((product) => ({
      OMSId: OMS_ID,
      ProductId: product.id,
      Product: product.asset.toUpperCase(),
      ProductFullName: product.asset.toUpperCase(),
      ProductType: NATIONAL_CURRENCIES.has(product.asset) ? 'NationalCurrency' : 'CryptoCurrency',
      DecimalPlaces: product.decimalPlaces,
      TickSize: jsonNumber(1n, product.decimalPlaces),
      NoFees: false,
    }));
  }

  productId(asset: string): number {
    return this.products.get(asset)?.id ?? 0;
  }

  /**
   * The market a call names by `InstrumentId` or by `Symbol` (the gateway symbol `BTCUSDT` or the
   * REST identifier `btc_usdt`, any case). Neither given: Invalid Request; no such market: 104.
   */
  resolve(payload: Payload): MarketSimulator {
    const instrumentId = optionalInteger(payload, 'InstrumentId');
    if (instrumentId !== undefined) return this.found(this.exchange.marketById(instrumentId), instrumentId);
    const symbol = optionalString(payload, 'Symbol');
    if (symbol !== undefined) return this.found(this.bySymbol.get(symbol.toUpperCase()), symbol);
    throw new GatewayCallError(GatewayErrorCode.InvalidRequest, 'InstrumentId or Symbol is required');
  }

  private found(market: MarketSimulator | undefined, named: number | string): MarketSimulator {
    if (!market) throw new GatewayCallError(GatewayErrorCode.ResourceNotFound, `no instrument ${named}`);
    return market;
  }

  private addProduct(asset: string, scale: number): void {
    const product = this.products.get(asset);
    if (product) product.decimalPlaces = Math.max(product.decimalPlaces, scale);
    else this.products.set(asset, { id: this.products.size + 1, asset, decimalPlaces: scale });
  }
}

/** `btc_usdt` -> `BTCUSDT`, as the gateway names instruments. */
export function gatewaySymbol(market: MarketSimulator): string {
  return `${market.spec.baseAsset}${market.spec.quoteAsset}`.toUpperCase();
}
