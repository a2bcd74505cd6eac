import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { FaultChange } from '../faults/fault-switchboard';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { RECORD_SEPARATOR } from './hub-framing';
import { MessageType } from './hub-protocol';
import { HubServer } from './hub-server';

/** Terminated like a message but not JSON: a client must drop the connection when it gets it. */
export const MALFORMED_FRAME = `{"type":2,"invocationId":"0","item":{"instrument":${RECORD_SEPARATOR}`;

const DEFAULT_MALFORMED_INTERVAL_MS = 1000;

/**
 * The connection faults as the hub injects them: dropping every connection, closing them with a
 * Close message, and sending malformed frames. (`silence` is read by each connection as it sends;
 * the delta faults act upstream, on the exchange's delta feed.)
 */
@Injectable()
export class HubFaults implements OnModuleInit, OnModuleDestroy {
  private unsubscribe?: () => void;
  private malformedTimer?: NodeJS.Timeout;

  constructor(
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
    @Inject(HubServer) private readonly server: HubServer,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.exchange.faults.changes.subscribe((change) => this.apply(change));
    const malformed = this.exchange.faults.params('malformed-frame');
    if (malformed) this.startMalformedFrames(malformed.intervalMs);
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.stopMalformedFrames();
  }

  private apply({ name, enabled, params }: FaultChange): void {
    switch (name) {
      case 'drop-connections':
        if (enabled) this.server.terminateAll();
        break;
      case 'hub-close':
        if (enabled) {
          this.server.closeAll({
            type: MessageType.Close,
            error: 'Connection closed by the server.',
            allowReconnect: params.allowReconnect === true,
          });
        }
        break;
      case 'malformed-frame':
        this.stopMalformedFrames();
        if (enabled) this.startMalformedFrames(params.intervalMs);
        break;
      default:
        break;
    }
  }

  private startMalformedFrames(intervalMs: unknown): void {
    const interval = typeof intervalMs === 'number' ? intervalMs : DEFAULT_MALFORMED_INTERVAL_MS;
    const sendToAll = () => {
      for (const connection of this.server.connected()) connection.sendAlone(MALFORMED_FRAME);
    };
    sendToAll();
    this.malformedTimer = setInterval(sendToAll, interval);
  }

  private stopMalformedFrames(): void {
    clearInterval(this.malformedTimer);
    this.malformedTimer = undefined;
  }
}
