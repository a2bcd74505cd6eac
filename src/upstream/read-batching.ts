import WebSocket, { ClientOptions } from 'ws';

/**
 * Batched reads for a busy upstream websocket: while messages keep coming, the socket reads every
 * `pauseMs`, all that arrived meanwhile at once; what arrives during a pause waits in the kernel.
 * A quiet socket reads its next message as it comes, and starts a pause after it.
 *
 * The exchange writes every message as it happens, so at tens of thousands of book updates a second
 * the process woke up for a few messages at a time, and paid for each wake-up again: the system
 * calls, the TCP acknowledgements it sends and the loopback delivery they cost, the event loop's
 * turn, and caches gone cold in between. Batched, it wakes a few hundred times a second instead of
 * well over a thousand, for at most `pauseMs` more lag (BENCHMARKS.md, Freshness).
 *
 * After a pause everything waiting is read before the next pause starts, in as many reads as it
 * takes, so a socket that is behind is never held back to one read a pause.
 */
/** Ten milliseconds of extra lag at most, against most of the wake-ups of a burst (BENCHMARKS.md, Freshness). */
export const UPSTREAM_READ_BATCH_MS = 10;

function batchReads(socket: WebSocket, pauseMs: number): void {
  if (pauseMs <= 0) return;
  /** A pause or the read after it is under way. */
  let batching = false;
  let arrived = false;
  let timer: NodeJS.Timeout | undefined;
  const pause = (): void => {
    // ws's own pause and resume keep its back-pressure: a resume does not restart a socket the
    // receiver has paused until it drains.
    socket.pause();
    timer = setTimeout(readWaiting, pauseMs);
  };
  const readWaiting = (): void => {
    arrived = false;
    socket.resume();
    // What waited is read in this turn of the event loop, in as many reads as it takes. A socket
    // still busy then gathers the next batch; a quiet one reads its next message as it comes.
    setImmediate(() => {
      if (arrived) pause();
      else batching = false;
    });
  };
  socket.on('message', () => {
    arrived = true;
    if (batching) return;
    batching = true;
    pause();
  });
  socket.once('close', () => clearTimeout(timer));
}

/**
 * The socket options a batched websocket needs (`options` as given when `pauseMs` is 0). A paused
 * socket goes on reading from the kernel until its buffer reaches the high-water mark (16 KiB by
 * default), which at a high rate means a read per arriving frame until the pause is nearly over; at
 * one byte it stops after the read in hand. ws hands these options to `http(s).request`, which hands
 * `highWaterMark` to the socket it opens.
 */
function batchedReadOptions(options: ClientOptions, pauseMs: number): ClientOptions {
  if (pauseMs <= 0) return options;
  const withMark: ClientOptions & { highWaterMark: number } = { ...options, highWaterMark: 1 };
  return withMark;
}

/** A ws client websocket whose reads are batched by `pauseMs` (0: read as messages arrive). */
export function openWebSocket(url: string, options: ClientOptions, pauseMs: number): WebSocket {
  const socket = new WebSocket(url, batchedReadOptions(options, pauseMs));
  batchReads(socket, pauseMs);
  return socket;
}

/** How the official SignalR client constructs a websocket in Node. */
export type WebSocketClass = new (
  address: string | URL,
  protocols?: string | string[],
  options?: ClientOptions,
) => WebSocket;

/**
 * A ws class whose instances batch their reads, for a client that opens its websockets itself (the
 * official SignalR client takes the class as its `WebSocket` option).
 */
export function webSocketWithBatchedReads(pauseMs: number): WebSocketClass {
  return class BatchedReadsWebSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[], options?: ClientOptions) {
      super(address, protocols, batchedReadOptions(options ?? {}, pauseMs));
      batchReads(this, pauseMs);
    }
  };
}
