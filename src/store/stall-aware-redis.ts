import Redis, { Command } from 'ioredis';

/** Emitted with the command's error when a connection drops itself after a stall. */
export const STALLED = 'stalled';

/**
 * A Redis connection that drops and remakes itself when a command times out while it is open: the
 * server is paused (`CLIENT PAUSE`, `DEBUG SLEEP`) or the path went silent without closing, and only
 * a new connection gets past it (through Sentinels it also asks for the primary anew). Every command
 * goes through `sendCommand`, pipelines and scripts included.
 */
export class StallAwareRedis extends Redis {
  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    command.promise.catch((error: unknown) => this.dropIfStalled(error));
    return super.sendCommand(command, stream);
  }

  private dropIfStalled(error: unknown): void {
    if (!(error instanceof Error) || error.message !== 'Command timed out') return;
    // The first timed-out command of a stall drops the connection; the others find it down already.
    if (this.status !== 'ready') return;
    this.emit(STALLED, error);
    this.disconnect(true);
  }
}
