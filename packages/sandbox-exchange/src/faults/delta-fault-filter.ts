import { BookDelta } from '../simulation/book-delta';
import { FaultSwitchboard } from './fault-switchboard';

/**
 * Applies the delta faults (skip, duplicate, reorder) between the markets and every public feed,
 * so that the hub and the gateway see the same damaged sequence while the truth stays intact.
 */
export class DeltaFaultFilter {
  private readonly held = new Map<string, BookDelta>();
  private skipped = 0;

  constructor(
    private readonly faults: FaultSwitchboard,
    private readonly publish: (delta: BookDelta) => void,
  ) {
    faults.changes.subscribe((change) => {
      if (change.name === 'skip-version' && change.enabled) this.skipped = 0;
      if (change.name === 'reorder-deltas' && !change.enabled) this.releaseHeld();
    });
  }

  accept(delta: BookDelta): void {
    if (this.faults.isOn('skip-version')) {
      const count = Number(this.faults.params('skip-version')?.count ?? 1);
      if (++this.skipped >= count) this.faults.clear('skip-version');
      return;
    }
    if (this.faults.isOn('reorder-deltas')) {
      const held = this.held.get(delta.instrument);
      if (!held) {
        this.held.set(delta.instrument, delta);
        return;
      }
      this.held.delete(delta.instrument);
      this.send(delta);
      this.send(held);
      return;
    }
    this.send(delta);
  }

  private send(delta: BookDelta): void {
    this.publish(delta);
    if (this.faults.isOn('duplicate-deltas')) this.publish(delta);
  }

  private releaseHeld(): void {
    const held = [...this.held.values()];
    this.held.clear();
    for (const delta of held) this.send(delta);
  }
}
