import { InstrumentOwnership, OwnershipListener, OwnershipStatus } from './instrument-ownership';

/** A process alone (no Redis) owns every listed instrument, without fences. */
export class LocalOwnership implements InstrumentOwnership {
  private listener?: OwnershipListener;
  private readonly owned = new Set<string>();
  private settled = false;
  private stopped = false;

  start(listener: OwnershipListener): void {
    this.listener = listener;
  }

  setListed(instruments: readonly string[]): void {
    if (this.stopped) return;
    const listed = new Set(instruments);
    for (const instrument of [...this.owned]) {
      if (listed.has(instrument)) continue;
      this.owned.delete(instrument);
      this.listener?.lost(instrument, 'unlisted');
    }
    for (const instrument of listed) {
      if (this.owned.has(instrument)) continue;
      this.owned.add(instrument);
      this.listener?.acquired(instrument, undefined);
    }
    this.settled = true;
  }

  fenced(instrument: string): void {
    if (this.owned.delete(instrument)) this.listener?.lost(instrument, 'fenced');
  }

  owns(instrument: string): boolean {
    return this.owned.has(instrument);
  }

  status(): OwnershipStatus {
    return { settled: this.settled, owned: this.owned.size, replicas: 1, unowned: 0 };
  }

  async stop(): Promise<void> {
    this.stopped = true;
  }

  async release(): Promise<void> {
    this.owned.clear();
  }
}
