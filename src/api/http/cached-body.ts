import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Brotli's default (11) takes tens of milliseconds on a full book; 5 is close in size at a fraction of the cost. */
const BROTLI_QUALITY = 5;

/**
 * A response body built once for one state version: its bytes, a validator, and each compressed form
 * made the first time a client asks for it.
 */
export class CachedBody {
  readonly etag: string;
  private readonly encoded = new Map<Encoding, Buffer>();

  constructor(
    readonly body: Buffer,
    readonly contentType: string,
  ) {
    this.etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  encodedAs(encoding: Encoding): Buffer {
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      bytes =
        encoding === 'gzip'
          ? gzipSync(this.body)
          : brotliCompressSync(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });
      this.encoded.set(encoding, bytes);
    }
    return bytes;
  }
}
