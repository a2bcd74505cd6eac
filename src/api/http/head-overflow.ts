/** A request line being read: its method, a space, and a target so far, which holds no white space. */
const REQUEST_LINE = /^[A-Z]+ \S*$/;

/** What node's parser error tells of where it stopped. */
export interface ParseErrorPlace {
  /** The bytes of the read node was parsing (a Buffer, whatever Fastify's types say). */
  readonly rawPacket?: unknown;
  /** How far into them it got. */
  readonly bytesParsed?: number;
}

/**
 * Whether node's limit on the request head, which counts the URL with the header fields, was passed
 * while the request line was read: then the URL is what is too long (414), not the headers (431).
 * Node does not say; the bytes it was parsing do. The line they stop in is the request line when it
 * starts with a method and a space, or, begun in an earlier read, when it holds no white space,
 * which a URL cannot and a header line nearly always does (after its colon).
 */
export function overflowedInRequestLine({ rawPacket, bytesParsed }: ParseErrorPlace): boolean {
  if (!(rawPacket instanceof Uint8Array)) return false;
  const parsed = Math.min(bytesParsed ?? rawPacket.length, rawPacket.length);
  const text = Buffer.from(rawPacket.buffer, rawPacket.byteOffset, parsed).toString('latin1');
  const lineStart = text.lastIndexOf('\n') + 1;
  const line = text.slice(lineStart);
  return REQUEST_LINE.test(line) || (lineStart === 0 && line !== '' && !/\s/.test(line));
}
