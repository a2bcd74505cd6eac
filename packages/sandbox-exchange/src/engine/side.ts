/** Order side, with the exchange's numeric codes (0 buy / bid, 1 sell / ask). */
export enum Side {
  Buy = 0,
  Sell = 1,
}

export function oppositeSide(side: Side): Side {
  return side === Side.Buy ? Side.Sell : Side.Buy;
}
