import { connect, Socket } from 'node:net';

export interface RawExchange {
  /** Everything the server sent, as text, until the connection closed. */
  readonly text: string;
  /** The code of the error the connection ended with (a reset), if it did. */
  readonly error?: string;
}

export interface RawResponse {
  readonly status: number;
  /** Header names in lower case, as sent. */
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Opens a connection to `url`'s host and port, lets `send` write on it what no HTTP client would (a
 * GET with a body, a chunked body left unfinished, a huge URL), and collects what the server sends
 * until the connection closes. The client ends its side once the server has ended its own.
 */
export function rawExchange(url: string, send: (socket: Socket) => void): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => send(socket));
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code ?? failure.message));
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('latin1'), error }));
  });
}

/** `rawExchange` that writes `request` whole, in one write. */
export function rawRequest(url: string, request: string | Buffer): Promise<RawExchange> {
  return rawExchange(url, (socket) => socket.write(request));
}

/**
 * The responses in `text`, in order, each body as long as its `Content-Length` says; `bodies` false
 * for answers to HEAD, which say the length of a body they do not carry.
 */
export function rawResponses(text: string, bodies = true): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) throw new Error(`an incomplete response head: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = bodies ? Number(headers['content-length'] ?? 0) : 0;
    const body = rest.slice(end + 4, end + 4 + length);
    if (body.length < length) throw new Error(`a body cut short: ${JSON.stringify(body.slice(0, 200))}`);
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}

/** The one response in `text`. */
export function rawResponse(text: string, bodies = true): RawResponse {
  const responses = rawResponses(text, bodies);
  if (responses.length !== 1) throw new Error(`${responses.length} responses instead of one`);
  return responses[0];
}
