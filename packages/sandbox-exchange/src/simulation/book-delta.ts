import { LevelChange } from '../engine/level-change';

/** One numbered change of a market's book: every level an operation touched, in their final state. */
export interface BookDelta {
  readonly instrument: string;
  readonly instrumentId: number;
  readonly version: number;
  readonly time: number;
  readonly changes: readonly LevelChange[];
}
