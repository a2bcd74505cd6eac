import { randomBytes } from 'node:crypto';
import { connect, Socket } from 'node:net';

const TEXT = 0x1;
const CLOSE = 0x8;

/**
 * A WebSocket client written on a bare TCP socket (RFC 6455, text frames only), for what no client
 * library lets a test do: stop reading while the server goes on writing, and read again later.
 */
export class RawWebSocket {
  /** Every text message received, parsed. */
  readonly messages: ({ type: string } & Record<string, unknown>)[] = [];
  closeCode?: number;
  private buffered = Buffer.alloc(0);

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.take(chunk));
  }

  /** Opens `url` + `/stream` (an http URL), resolving once the server switched protocols. */
  static open(url: string): Promise<RawWebSocket> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      socket.once('error', reject);
      socket.once('connect', () =>
        socket.write(
          [
            'GET /stream HTTP/1.1',
            `Host: ${hostname}:${port}`,
            'Upgrade: websocket',
            'Connection: Upgrade',
            `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
            'Sec-WebSocket-Version: 13',
            '',
            '',
          ].join('\r\n'),
        ),
      );
      let head = Buffer.alloc(0);
      const onHead = (chunk: Buffer): void => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onHead);
        const status = head.subarray(0, end).toString().split('\r\n')[0];
        if (!status.includes(' 101 ')) return reject(new Error(`no upgrade: ${status}`));
        const client = new RawWebSocket(socket);
        client.take(head.subarray(end + 4));
        resolve(client);
      };
      socket.on('data', onHead);
    });
  }

  /** Sends a text frame, masked as a client must. */
  send(frame: unknown): void {
    const payload = Buffer.from(JSON.stringify(frame));
    const mask = randomBytes(4);
    const length = payload.length;
    const header =
      length < 126
        ? Buffer.from([0x80 | TEXT, 0x80 | length])
        : Buffer.from([0x80 | TEXT, 0x80 | 126, length >> 8, length & 0xff]);
    const masked = Buffer.alloc(length);
    for (let i = 0; i < length; i++) masked[i] = payload[i] ^ mask[i % 4];
    this.socket.write(Buffer.concat([header, mask, masked]));
  }

  /** Stops reading: what the server writes waits in the socket's buffers, then in the server. */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  close(): void {
    this.socket.destroy();
  }

  private take(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const frame = readFrame(this.buffered);
      if (!frame) return;
      this.buffered = this.buffered.subarray(frame.size);
      if (frame.opcode === TEXT) this.messages.push(JSON.parse(frame.payload.toString()));
      if (frame.opcode === CLOSE) this.closeCode = frame.payload.readUInt16BE(0);
    }
  }
}

/** One unmasked, unfragmented server frame from the start of `data`, or undefined until all of it came. */
function readFrame(data: Buffer): { opcode: number; payload: Buffer; size: number } | undefined {
  if (data.length < 2) return undefined;
  let length = data[1] & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (data.length < 4) return undefined;
    length = data.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (data.length < 10) return undefined;
    length = Number(data.readBigUInt64BE(2));
    offset = 10;
  }
  if (data.length < offset + length) return undefined;
  return { opcode: data[0] & 0x0f, payload: data.subarray(offset, offset + length), size: offset + length };
}
