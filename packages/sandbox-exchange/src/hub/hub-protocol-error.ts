/**
 * Input that breaks the SignalR JSON hub protocol. The message mirrors the server's own wording
 * (an `InvalidDataException` there), so that clients see the texts they would see in production.
 */
export class HubProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HubProtocolError';
  }
}
