import { Injectable } from '@nestjs/common';
import { Payload } from './frame-codec';
import { GatewayConnection } from './gateway-connection';

/**
 * One gateway function: returns the reply payload (any JSON value, or an EncodedPayload), or throws
 * a GatewayCallError to reply with a failed result.
 */
export type GatewayCall = (connection: GatewayConnection, payload: Payload) => unknown;

/** The functions the gateway answers, by name (`n`); other modules add theirs with `register`. */
@Injectable()
export class GatewayFunctions {
  private readonly calls = new Map<string, GatewayCall>();

  register(name: string, call: GatewayCall): void {
    if (this.calls.has(name)) throw new Error(`gateway function ${name} is already registered`);
    this.calls.set(name, call);
  }

  get(name: string): GatewayCall | undefined {
    return this.calls.get(name);
  }

  names(): string[] {
    return [...this.calls.keys()];
  }
}
