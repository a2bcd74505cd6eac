/**
 * Where an instrument's book stands: `syncing` until the first snapshot is applied, `live` while
 * deltas apply cleanly, `resync` after a gap, a crossed book or a failed check, until a new snapshot.
 */
export type SyncState = 'syncing' | 'live' | 'resync';
