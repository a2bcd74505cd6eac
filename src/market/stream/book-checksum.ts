import { crc32 } from 'node:zlib';
import { PriceLevel } from '../book-update';

/** How many levels of each side the checksum covers. */
export const CHECKSUM_DEPTH = 25;

/**
 * The text a book's checksum is taken over: bid price, bid amount, ask price, ask amount of level 1,
 * then of level 2 and so on to `CHECKSUM_DEPTH`, joined with `:`. A side that runs out contributes
 * nothing more, so the deeper levels of the other side give only their own two fields. Levels are best
 * first and written exactly as the messages write them.
 */
export function checksumText(bids: readonly PriceLevel[], asks: readonly PriceLevel[]): string {
  const fields: string[] = [];
  const depth = Math.min(CHECKSUM_DEPTH, Math.max(bids.length, asks.length));
  for (let i = 0; i < depth; i++) {
    if (i < bids.length) fields.push(bids[i][0], bids[i][1]);
    if (i < asks.length) fields.push(asks[i][0], asks[i][1]);
  }
  return fields.join(':');
}

/** CRC-32 (IEEE 802.3, as zlib computes it) of `checksumText`, as a signed 32-bit integer. */
export function bookChecksum(bids: readonly PriceLevel[], asks: readonly PriceLevel[]): number {
  return crc32(checksumText(bids, asks)) | 0;
}
