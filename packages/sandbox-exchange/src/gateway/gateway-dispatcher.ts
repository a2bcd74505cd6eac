import { Logger } from '@nestjs/common';
import { decodeFrame, decodePayload, EncodedPayload } from './frame-codec';
import { GatewayConnection } from './gateway-connection';
import { GatewayFunctions } from './gateway-functions';
import { failed, GatewayCallError, GatewayErrorCode } from './gateway-result';

export const ENDPOINT_NOT_FOUND = 'Endpoint Not Found';

/**
 * Answers one client frame. How bad input is answered:
 * - a frame that is not a JSON object, or whose `n`, `i` or `m` is invalid (so that no function can
 *   be called): an error frame (`m` 5) whose `o` is the failed result `{result:false, errormsg:
 *   "Invalid Request", errorcode:100, detail}`, echoing `i` and `n` where they were readable;
 * - an unknown function: an error frame with `o` "Endpoint Not Found" (plain text, as the real
 *   gateway sends it);
 * - a known function whose `o` is not a JSON-encoded object, or whose fields are wrong: a reply
 *   (`m` 1) with the failed result, errorcode 100.
 * Nothing a client sends closes the socket, except a frame over the size limit.
 */
export class GatewayDispatcher {
  private readonly logger = new Logger(GatewayDispatcher.name);

  constructor(private readonly functions: GatewayFunctions) {}

  dispatch(connection: GatewayConnection, text: string): void {
    const decoded = decodeFrame(text);
    if (!decoded.ok) {
      const result = failed(GatewayErrorCode.InvalidRequest, decoded.reason);
      connection.error(decoded.sequence, decoded.name, EncodedPayload.of(result));
      return;
    }
    const { sequence, name } = decoded.frame;
    const call = this.functions.get(name);
    if (!call) {
      connection.error(sequence, name, EncodedPayload.text(ENDPOINT_NOT_FOUND));
      return;
    }
    const payload = decodePayload(decoded.frame.payload);
    if (!payload.ok) {
      connection.reply(
        sequence,
        name,
        EncodedPayload.of(failed(GatewayErrorCode.InvalidRequest, payload.reason)),
      );
      return;
    }
    let reply: EncodedPayload;
    try {
      const value = call(connection, payload.payload);
      reply = value instanceof EncodedPayload ? value : EncodedPayload.of(value);
    } catch (error) {
      if (!(error instanceof GatewayCallError)) {
        this.logger.error(`${name} failed: ${(error as Error).stack ?? String(error)}`);
      }
      const result = error instanceof GatewayCallError ? error.result : failed(GatewayErrorCode.ServerError);
      reply = EncodedPayload.of(result);
    }
    connection.reply(sequence, name, reply);
  }
}
