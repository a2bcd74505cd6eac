import type { ServerResponse } from 'node:http';
import type { ApiReply } from './api-http';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * An endpoint's reply written straight to node's response, as Fastify would write it: lower-case
 * header names in the order they were set, `content-length` from the payload (none on a 304), an
 * object as JSON.
 *
 * The headers are copied in one by one: an object made by spreading another (`{ ...headers }`) takes
 * V8's slow path for each header added to it afterwards (BENCHMARKS.md, HTTP).
 */
export class RawReply implements ApiReply {
  private code = 200;
  private readonly written: Record<string, string> = {};

  constructor(
    private readonly response: ServerResponse,
    /** Told the status once the response is handed to node. */
    private readonly sent?: (status: number) => void,
  ) {}

  /** The response has gone out: nothing more can be sent. */
  get done(): boolean {
    return this.response.headersSent;
  }

  header(name: string, value: string): this {
    this.written[name.toLowerCase()] = value;
    return this;
  }

  /** Sets several headers at once, in their order. */
  headers(values: Readonly<Record<string, string>>): this {
    for (const name in values) this.written[name] = values[name];
    return this;
  }

  status(code: number): this {
    this.code = code;
    return this;
  }

  send(payload?: Buffer | object): this {
    if (payload === undefined) {
      if (this.code !== 204 && this.code !== 304) this.written['content-length'] = '0';
      this.response.writeHead(this.code, this.written).end();
      this.sent?.(this.code);
      return this;
    }
    let bytes: Buffer | string;
    if (Buffer.isBuffer(payload)) {
      bytes = payload;
    } else {
      this.written['content-type'] ??= JSON_TYPE;
      bytes = JSON.stringify(payload);
    }
    this.written['content-length'] = String(Buffer.byteLength(bytes));
    this.response.writeHead(this.code, this.written).end(bytes);
    this.sent?.(this.code);
    return this;
  }
}
