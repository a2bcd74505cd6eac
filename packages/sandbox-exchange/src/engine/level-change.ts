import { Side } from './side';

/** How a price level changed, with the gateway's ActionType codes. */
export enum LevelAction {
  New = 0,
  Update = 1,
  Delete = 2,
}

/** The state of one price level after an operation; `amount` 0 with Delete means the level is gone. */
export interface LevelChange {
  readonly side: Side;
  readonly price: bigint;
  readonly amount: bigint;
  readonly orders: number;
  readonly action: LevelAction;
}
