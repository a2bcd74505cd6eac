import { BookMessage, LevelUpdate, PriceLevel } from '../market/book-update';
import { BookSynchronizer } from '../market/book-synchronizer';
import { RecordedItem } from '../recording/recording-format';

/** The book a `checkpoint` record holds (see IngestRecorder). */
interface Checkpoint {
  readonly version: number;
  readonly state: string;
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
}

/** A checkpoint record as the snapshot a synchronizer starts from; undefined for a book that was not live. */
export function checkpointSnapshot(item: RecordedItem): BookMessage | undefined {
  const checkpoint = JSON.parse(item.data) as Checkpoint;
  if (checkpoint.state !== 'live' || item.instrument === undefined) return undefined;
  const updates: LevelUpdate[] = [
    ...checkpoint.bids.map(([price, amount]): LevelUpdate => ({ side: 'bid', price, amount })),
    ...checkpoint.asks.map(([price, amount]): LevelUpdate => ({ side: 'ask', price, amount })),
  ];
  return { instrument: item.instrument, version: checkpoint.version, snapshot: true, updates, time: item.at };
}

/** A snapshot loaded in slices is finished at once: the ingest finishes it within milliseconds. */
export function finishLoad(sync: BookSynchronizer, at: number): void {
  while (sync.loadPending) sync.continueLoad(at);
}
