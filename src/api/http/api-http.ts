import type { IncomingHttpHeaders } from 'node:http';

/** What an endpoint reads of a request: Fastify's request has it, and so has the fast path's. */
export interface ApiRequest {
  readonly headers: IncomingHttpHeaders;
  readonly params: unknown;
  readonly query: unknown;
}

/** What an endpoint does with its reply: Fastify's reply does it, and so does the fast path's. */
export interface ApiReply {
  header(name: string, value: string): unknown;
  /** Sets several headers at once, in their order. */
  headers(values: Readonly<Record<string, string>>): unknown;
  status(code: number): unknown;
  /** A Buffer as it is; an object as JSON; nothing for a response without a body. */
  send(payload?: Buffer | object): unknown;
}
