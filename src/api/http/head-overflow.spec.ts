import { overflowedInRequestLine } from './head-overflow';

/** The place node's parser stopped at: `read` parsed up to `stop` (its end when omitted). */
function place(read: string, stop?: string): { rawPacket: Buffer; bytesParsed: number } {
  return {
    rawPacket: Buffer.from(read, 'latin1'),
    bytesParsed: stop === undefined ? read.length : read.indexOf(stop),
  };
}

describe('overflowedInRequestLine', () => {
  it.each([
    ['the URL ends in the read', place('GET /summary?k0=1&k1=1 HTTP/1.1\r\nHost: a\r\n\r\n', ' HTTP/1.1')],
    ['the URL goes on past the read', place('GET /summary?k0=1&k1=1&k2')],
    ['the read goes on with the URL begun in an earlier one', place('871=1&k872=1&k873=1&k87')],
    ['blank lines come before the request line', place('\r\nGET /summary?k0=1&k1')],
    ['the URL is in absolute form', place('GET http://gateway/summary?k0=1')],
  ])('holds the URL to blame when %s', (_case, at) => {
    expect(overflowedInRequestLine(at)).toBe(true);
  });

  it.each([
    ['a header value ends in the read', place('GET /summary HTTP/1.1\r\nX-Big: aaaa\r\n\r\n', '\r\n\r\n')],
    ['a header value goes on past the read', place('GET /summary HTTP/1.1\r\nHost: a\r\nX-Big: aaaa')],
    ['a header name goes on past the read', place('GET /summary HTTP/1.1\r\nX-A: b\r\nX-Very-Long')],
    ['the read goes on with a header begun earlier, spaces and all', place('; session=abc; theme=dark')],
    ['the read starts a header line', place('X-Big: aaaa')],
    ['the read holds nothing parsed', place('aaaa', 'aaaa')],
  ])('holds the headers to blame when %s', (_case, at) => {
    expect(overflowedInRequestLine(at)).toBe(false);
  });

  it('holds the headers to blame when node gives no bytes', () => {
    expect(overflowedInRequestLine({})).toBe(false);
    expect(overflowedInRequestLine({ rawPacket: { type: 'Buffer', data: [71] }, bytesParsed: 1 })).toBe(
      false,
    );
  });

  it('reads no further than the packet, whatever bytesParsed says', () => {
    expect(overflowedInRequestLine({ rawPacket: Buffer.from('GET /aaaa'), bytesParsed: 1_000 })).toBe(true);
  });
});
