import { SyncState } from '../../market/sync-state';

/** How the pages name a book's sync state. */
export function syncStateLabel(state: SyncState | null | undefined): string {
  if (state === 'live') return 'live';
  if (state === 'resync') return 're-synchronising';
  if (state === 'syncing') return 'synchronising';
  return 'unknown';
}
