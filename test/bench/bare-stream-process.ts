import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import type { RecordedFrames } from './stream-readers';

/**
 * The peer of the stream: a bare `ws` server that sends each channel's recorded frames, at the times
 * they were received, to every connection subscribed to the channel. Subscribing is all it understands
 * (answered with `subscribed`, as the gateway does); it builds nothing and follows nothing, so what it
 * spends is the floor of writing the same bytes to the same readers.
 *
 * IPC: `{ op: 'listen' }` → `{ op: 'listening', url }`; `{ op: 'replay', framesFile }` →
 * `{ op: 'replayed', frames }` (frames written, over every connection) once the last is sent.
 */

type BareCommand = { readonly op: 'listen' } | { readonly op: 'replay'; readonly framesFile: string };

/** How often the replay sends what has come due. */
const TICK_MS = 2;

function main(): void {
  const subscribers = new Map<string, Set<WebSocket>>();
  const server = createServer((_request, response) => response.writeHead(404).end());
  const sockets = new WebSocketServer({ server, path: '/stream', perMessageDeflate: false });
  sockets.on('connection', (ws) => {
    ws.on('message', (data: Buffer) => {
      const { channels } = JSON.parse(data.toString()) as { channels: string[] };
      for (const channel of channels) {
        let set = subscribers.get(channel);
        if (!set) subscribers.set(channel, (set = new Set()));
        set.add(ws);
        ws.send(JSON.stringify({ type: 'subscribed', channel }));
      }
    });
    ws.on('close', () => {
      for (const set of subscribers.values()) set.delete(ws);
    });
  });

  process.on('message', (command: BareCommand) => {
    if (command.op === 'listen')
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        process.send?.({ op: 'listening', url: `http://127.0.0.1:${port}` });
      });
    else replay(JSON.parse(readFileSync(command.framesFile, 'utf8')) as RecordedFrames);
  });

  function replay(recorded: RecordedFrames): void {
    const timeline = Object.entries(recorded)
      .flatMap(([channel, frames]) => frames.map(([at, text]) => ({ at, channel, text })))
      .sort((a, b) => a.at - b.at);
    const started = Date.now();
    let next = 0;
    let written = 0;
    const timer = setInterval(() => {
      const elapsed = Date.now() - started;
      for (; next < timeline.length && timeline[next].at <= elapsed; next++) {
        const { channel, text } = timeline[next];
        for (const ws of subscribers.get(channel) ?? []) {
          ws.send(text);
          written++;
        }
      }
      if (next < timeline.length) return;
      clearInterval(timer);
      process.send?.({ op: 'replayed', frames: written });
    }, TICK_MS);
  }
}

if (require.main === module) main();
