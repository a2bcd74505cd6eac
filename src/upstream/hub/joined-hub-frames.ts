import { WebSocketClass } from '../read-batching';

/** Ends every message of the JSON hub protocol (RECORD_SEPARATOR as a byte). */
const RECORD_SEPARATOR_BYTE = 0x1e;

/**
 * A websocket class whose text frames, as many as one read of the socket brings, reach the official
 * SignalR client as one message: their texts joined, in order.
 *
 * The hub's transport sends a frame a message unless messages wait for it, and the official client
 * pays for every frame it is handed whatever the frame holds: an event object, a trace line built even when not logged, a server-timeout
 * timer cleared and set again, the clock read for the keep-alive. Its protocol reads any number of
 * records from one text (a frame of the JSON hub protocol may hold several), so joined frames cost
 * that once per read, and each message still reaches its stream in the order it came.
 *
 * Only frames that end with a record separator are joined: a frame cut short is handed on alone, so
 * that it cannot run into the next one and cost a message more than it does unjoined. Joined frames
 * are handed on in a microtask once the read that brought them is processed, before any other event
 * of the socket (close, error) and before any timer or the next read.
 */
export function joiningHubFrames(base: WebSocketClass): WebSocketClass {
  return class JoinedHubFramesWebSocket extends base {
    /** Undefined until the first frame: the base class may emit before this class's fields are set. */
    private waiting?: Buffer[];
    private handOnQueued = false;

    override emit(event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'message' && args[1] === false && endsRecord(args[0])) {
        (this.waiting ??= []).push(args[0]);
        if (!this.handOnQueued) {
          this.handOnQueued = true;
          queueMicrotask(() => this.handOnWaiting());
        }
        return true;
      }
      this.handOnWaiting();
      return super.emit(event, ...args);
    }

    private handOnWaiting(): void {
      this.handOnQueued = false;
      const waiting = this.waiting;
      if (waiting === undefined || waiting.length === 0) return;
      this.waiting = [];
      super.emit('message', waiting.length === 1 ? waiting[0] : Buffer.concat(waiting), false);
    }
  };
}

function endsRecord(data: unknown): data is Buffer {
  return Buffer.isBuffer(data) && data.length > 0 && data[data.length - 1] === RECORD_SEPARATOR_BYTE;
}
