/** The gateway's description of a market (GetInstruments), reduced to what joining the catalogue needs. */
export interface GatewayInstrument {
  readonly instrumentId: number;
  readonly symbol: string;
  readonly baseSymbol: string;
  readonly quoteSymbol: string;
  readonly sessionStatus: string;
}

/** The gateway's description of an asset (GetProducts). */
export interface GatewayProduct {
  readonly productId: number;
  readonly symbol: string;
  readonly fullName?: string;
  readonly decimalPlaces: number;
}
