import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/**
 * Most bodies change with every write and are compressed once per version on the API's event loop,
 * where effort is paid for in freshness: fast levels, nearly as small (BENCHMARKS.md, Compressing a
 * new body).
 */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 3;

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
          ? gzipSync(this.body, { level: GZIP_LEVEL })
          : brotliCompressSync(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });
      this.encoded.set(encoding, bytes);
    }
    return bytes;
  }
}
