import { OwnerRequest, OwnerRequests } from './owner-request';

/** A process alone owns everything: a request goes straight to its own listener. */
export class LocalOwnerRequests implements OwnerRequests {
  private listener?: (request: OwnerRequest) => void;

  start(listener: (request: OwnerRequest) => void): void {
    this.listener = listener;
  }

  async send(request: OwnerRequest): Promise<void> {
    this.listener?.(request);
  }

  async stop(): Promise<void> {
    this.listener = undefined;
  }
}
