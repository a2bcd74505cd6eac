import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id may look like to be taken as is: short, and nothing that could forge a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=-]{1,128}$/;

/** Tells the client the id its request is logged under; Fastify's hook and the fast path both tag here. */
export function addRequestId(reply: { header(name: string, value: string): unknown }, id: string): void {
  reply.header(REQUEST_ID_HEADER, id);
}

/** The request's id: a sane `X-Request-Id` from the caller (a proxy's), or a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
