/** Hears what arrives from the exchange, exactly as it arrived: the recorder is one. */
export interface UpstreamListener {
  /** One record of the market-data hub (a `Book` stream item), as its text; `instrument` when it names one. */
  hub(record: string, instrument: string | undefined, at: number): void;
  /** One frame of the websocket gateway, as its text. */
  frame(text: string, at: number): void;
  /** The body of a successful REST answer to `path` (with its query). */
  rest(path: string, text: string, at: number): void;
}

/**
 * Where the clients of the exchange hand on what they receive. Nobody listens unless a recorder is
 * attached; the clients ask `listening` first, so that without one a message costs a field read.
 */
export class UpstreamTap {
  private listener?: UpstreamListener;

  get listening(): boolean {
    return this.listener !== undefined;
  }

  /** Starts handing messages to `listener`; returns the function that stops it. */
  attach(listener: UpstreamListener): () => void {
    this.listener = listener;
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }

  /** Stamped with the wall clock here: the hub protocol that reads the record has no clock. */
  hub(record: string, instrument: string | undefined): void {
    this.listener?.hub(record, instrument, Date.now());
  }

  frame(text: string, at: number): void {
    this.listener?.frame(text, at);
  }

  rest(path: string, text: string, at: number): void {
    this.listener?.rest(path, text, at);
  }
}
