import { BookMessage, LevelUpdate } from '../market/book-update';
import { BookSynchronizer } from '../market/book-synchronizer';
import { Checkpoint, RecordedItem } from '../recording/recording-format';

/** A checkpoint record as the snapshot a synchronizer starts from; undefined for a book that was not live. */
export function checkpointSnapshot(
  item: RecordedItem,
  checkpoint = checkpointOf(item),
): BookMessage | undefined {
  if (checkpoint.state !== 'live' || item.instrument === undefined) return undefined;
  const updates: LevelUpdate[] = [
    ...checkpoint.bids.map(([price, amount]): LevelUpdate => ({ side: 'bid', price, amount })),
    ...checkpoint.asks.map(([price, amount]): LevelUpdate => ({ side: 'ask', price, amount })),
  ];
  return { instrument: item.instrument, version: checkpoint.version, snapshot: true, updates, time: item.at };
}

export function checkpointOf(item: RecordedItem): Checkpoint {
  return JSON.parse(item.data) as Checkpoint;
}

/** A snapshot loaded in slices is finished at once: the ingest finishes it within milliseconds. */
export function finishLoad(sync: BookSynchronizer, at: number): void {
  while (sync.loadPending) sync.continueLoad(at);
}
