import { readFileSync } from 'node:fs';
import { createServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The floor of `/tradingview/streaming`: a bare node HTTP server holding chunked responses open and
 * writing recorded lines, at the times they were received, to every one of them. It builds and follows nothing, so what it spends is the cost of writing the same
 * bytes to the same readers.
 *
 * IPC: `{ op: 'listen' }` → `{ op: 'listening', url }`; `{ op: 'replay', linesFile }` (JSON
 * `[msSinceStart, line][]`) → `{ op: 'replayed', lines }` (lines written, over every reader).
 */

export type BareFeedCommand =
  { readonly op: 'listen' } | { readonly op: 'replay'; readonly linesFile: string };
export type BareFeedReply =
  { readonly op: 'listening'; readonly url: string } | { readonly op: 'replayed'; readonly lines: number };

function main(): void {
  const readers = new Set<ServerResponse>();
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.flushHeaders();
    readers.add(response);
    response.once('close', () => readers.delete(response));
  });

  process.on('message', (command: BareFeedCommand) => {
    if (command.op === 'listen')
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        reply({ op: 'listening', url: `http://127.0.0.1:${port}` });
      });
    else replay(JSON.parse(readFileSync(command.linesFile, 'utf8')) as [number, string][]);
  });

  /** Each group of lines that arrived together is one write, sent when it arrived (as the gateway batches a turn's lines). */
  function replay(timeline: readonly [number, string][]): void {
    const groups: { at: number; text: string; lines: number }[] = [];
    for (const [at, line] of timeline) {
      const last = groups.at(-1);
      if (last?.at === at) {
        last.text += `${line}\n`;
        last.lines++;
      } else groups.push({ at, text: `${line}\n`, lines: 1 });
    }
    const started = Date.now();
    let next = 0;
    let written = 0;
    const send = (): void => {
      for (; next < groups.length && groups[next].at <= Date.now() - started; next++) {
        for (const reader of readers) reader.write(groups[next].text);
        written += groups[next].lines * readers.size;
      }
      if (next < groups.length) setTimeout(send, groups[next].at - (Date.now() - started));
      else reply({ op: 'replayed', lines: written });
    };
    send();
  }
}

function reply(message: BareFeedReply): void {
  process.send?.(message);
}

if (require.main === module) main();
