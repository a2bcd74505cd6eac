import { Side } from '../engine/side';

/** Price move of a trade against the previous one, with the gateway's codes. */
export enum TickDirection {
  NoChange = 0,
  UpTick = 1,
  DownTick = 2,
}

export interface SandboxTrade {
  readonly id: number;
  readonly instrument: string;
  readonly instrumentId: number;
  /** Price in price units of the market. */
  readonly price: bigint;
  /** Base amount in amount units of the market. */
  readonly amount: bigint;
  readonly takerSide: Side;
  readonly time: number;
  readonly direction: TickDirection;
  readonly makerOrderId: number;
  readonly takerOrderId: number;
  readonly makerAccountId: number;
  readonly takerAccountId: number;
}
