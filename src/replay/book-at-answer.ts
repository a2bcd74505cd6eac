import { PriceLevel } from '../market/book-update';
import { SyncState } from '../market/sync-state';
import { Trade } from '../market/trade';

/** What a recording says one market was at one moment (see docs/recordings.md). */
export interface BookAtAnswer {
  readonly instrument: string;
  readonly at: string;
  /** The process whose recording answered, and its file. */
  readonly process: string;
  readonly file: string;
  readonly book: {
    readonly version: number;
    readonly state: SyncState;
    readonly bids: readonly PriceLevel[];
    readonly asks: readonly PriceLevel[];
  };
  /** The newest trades known at the moment, newest first. */
  readonly trades: readonly Trade[];
  /** The listing figures last published before the moment, and when. */
  readonly published?: { readonly at: string; readonly figures: unknown };
  /** Feed outages within five minutes of the moment; `to` absent: not over by the file's end. */
  readonly gaps: readonly { readonly feed: string; readonly from: string; readonly to?: string }[];
  /** What could not be read: damaged lines, a file cut short, files of another format. */
  readonly problems: readonly string[];
}
