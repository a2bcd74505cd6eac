import { WebSocket } from 'ws';
import { LoginSession } from '../users/login-sessions';
import { SandboxUser } from '../users/sandbox-user';
import { EncodedPayload, encodeFrame, MessageType } from './frame-codec';

/** A socket that lets this much output pile up is not reading; it is cut off rather than buffered. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** One gateway websocket: its login, its authentication and the counter its events carry. */
export class GatewayConnection {
  /** The session of a successful WebAuthenticateUser; calls that need a user need this. */
  authenticated?: LoginSession;
  private eventSequence = 0;

  constructor(
    private readonly socket: WebSocket,
    /** The session whose `session_token` was in the URL, if any. */
    readonly urlSession: LoginSession | undefined,
    private readonly isSilenced: () => boolean,
  ) {}

  get user(): SandboxUser | undefined {
    return this.authenticated?.user;
  }

  /** True when a login session is tied to the socket, by its URL or by WebAuthenticateUser. */
  get hasSession(): boolean {
    return this.urlSession !== undefined || this.authenticated !== undefined;
  }

  reply(sequence: number, name: string, payload: EncodedPayload): void {
    this.send(encodeFrame(MessageType.Reply, sequence, name, payload));
  }

  error(sequence: number, name: string, payload: EncodedPayload): void {
    this.send(encodeFrame(MessageType.Error, sequence, name, payload));
  }

  /** Events carry the socket's own counter in `i`, not the number of the subscribing request. */
  event(name: string, payload: EncodedPayload): void {
    if (this.isSilenced() || !this.isOpen) return;
    this.send(encodeFrame(MessageType.Event, ++this.eventSequence, name, payload));
  }

  /** Sends text as it is, valid frame or not. */
  send(text: string): void {
    if (this.isSilenced() || !this.isOpen) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.socket.terminate();
      return;
    }
    this.socket.send(text);
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  terminate(): void {
    this.socket.terminate();
  }
}
