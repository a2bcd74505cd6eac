import { waitFor } from './fault-run';

export type Frame = { type: string } & Record<string, unknown>;

/** A reader of `/stream` on Node's own WebSocket, which the gateway does not use. */
export class StreamClient {
  readonly frames: Frame[] = [];
  closeCode?: number;
  private readonly socket: WebSocket;
  readonly opened: Promise<void>;

  constructor(url: string) {
    this.socket = new WebSocket(`${url.replace(/^http/, 'ws')}/stream`);
    this.opened = new Promise((resolve, reject) => {
      this.socket.addEventListener('open', () => resolve(), { once: true });
      this.socket.addEventListener('error', () => reject(new Error('the stream did not open')), {
        once: true,
      });
    });
    this.socket.addEventListener('message', (event) =>
      this.frames.push(JSON.parse(String(event.data)) as Frame),
    );
    this.socket.addEventListener('close', (event) => (this.closeCode = event.code));
  }

  /** Text as it is, bytes as a binary frame, anything else as JSON. */
  send(frame: unknown): void {
    this.socket.send(
      typeof frame === 'string' || frame instanceof Uint8Array ? frame : JSON.stringify(frame),
    );
  }

  /** The first frame from `from` on that matches, once it has come. */
  async frame(matches: (frame: Frame) => boolean, from = 0): Promise<Frame> {
    let found: Frame | undefined;
    await waitFor(() => (found = this.frames.slice(from).find(matches)) !== undefined, 'a frame');
    return found!;
  }

  close(): void {
    this.socket.close();
  }
}
