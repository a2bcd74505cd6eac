import { Injectable } from '@nestjs/common';
import { setMaxListeners } from 'node:events';

/**
 * Tells the ingest's parts that shutdown has begun, and aborts the REST calls still running then,
 * which would otherwise go on retrying.
 */
@Injectable()
export class ShutdownSignal {
  private readonly controller = new AbortController();

  constructor() {
    // Every REST call under way or waiting for the budget listens to it, so there is no sane cap.
    setMaxListeners(0, this.controller.signal);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  abort(): void {
    this.controller.abort(new Error('shutting down'));
  }
}
