/** A market's Level 1 as the gateway reports it. Decimals are canonical text; "0" when there is none. */
export interface Level1 {
  readonly instrument: string;
  readonly instrumentId: number;
  readonly bestBid: string;
  readonly bestOffer: string;
  readonly lastTradedPrice: string;
  readonly lastTradedQuantity: string;
  /** Unix milliseconds; 0 without a trade. */
  readonly lastTradeTime: number;
  /** Base volume of the past 24 hours. */
  readonly rolling24hVolume: string;
  readonly rolling24hTradeCount: number;
  /** Unix milliseconds: the record's TimeStamp, else the receive time. */
  readonly time: number;
}
