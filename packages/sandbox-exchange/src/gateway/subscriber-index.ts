/** Which connections subscribed to which instruments of one feed, looked up both ways. */
export class SubscriberIndex<C> {
  private readonly byInstrument = new Map<number, Set<C>>();
  private readonly byConnection = new Map<C, Set<number>>();

  /** False when the connection had already subscribed to the instrument. */
  add(connection: C, instrumentId: number): boolean {
    const instruments = this.byConnection.get(connection) ?? new Set<number>();
    if (instruments.has(instrumentId)) return false;
    instruments.add(instrumentId);
    this.byConnection.set(connection, instruments);
    const connections = this.byInstrument.get(instrumentId) ?? new Set<C>();
    connections.add(connection);
    this.byInstrument.set(instrumentId, connections);
    return true;
  }

  /** False when the connection had not subscribed to the instrument. */
  remove(connection: C, instrumentId: number): boolean {
    const instruments = this.byConnection.get(connection);
    if (!instruments?.delete(instrumentId)) return false;
    if (instruments.size === 0) this.byConnection.delete(connection);
    const connections = this.byInstrument.get(instrumentId);
    connections?.delete(connection);
    if (connections?.size === 0) this.byInstrument.delete(instrumentId);
    return true;
  }

  removeConnection(connection: C): void {
    for (const instrumentId of [...(this.byConnection.get(connection) ?? [])])
      this.remove(connection, instrumentId);
  }

  subscribers(instrumentId: number): ReadonlySet<C> {
    return this.byInstrument.get(instrumentId) ?? EMPTY;
  }

  has(connection: C, instrumentId: number): boolean {
    return this.byConnection.get(connection)?.has(instrumentId) ?? false;
  }
}

const EMPTY: ReadonlySet<never> = new Set();
