import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HubClient } from '../../src/upstream/hub/hub-client';
import { freePort } from '../support/redis-server';
import { RecordingLogger, testHubClient, waitFor } from './hub-client-support';

describe('HubClient: why a connection could not be made', () => {
  let client: HubClient | undefined;
  let server: Server | undefined;

  afterEach(async () => {
    await client?.stop();
    server?.close();
    client = undefined;
    server = undefined;
  });

  async function firstFailure(baseUrl: string): Promise<string> {
    let logger: RecordingLogger;
    ({ client, logger } = testHubClient(baseUrl));
    client.start();
    await waitFor(() => logger.lines.some((line) => line.startsWith('warn ')), 'a failed connection');
    return logger.lines.find((line) => line.startsWith('warn '))!.slice('warn '.length);
  }

  it('says the hub is unreachable when nothing listens, without the SignalR hint', async () => {
    const port = await freePort();
    const message = await firstFailure(`http://127.0.0.1:${port}`);
    expect(message).toBe(
      `market-data hub unreachable at http://127.0.0.1:${port}/marketdata/info: connection refused`,
    );
  });

  it('says the hub is unreachable when the server resets the connection', async () => {
    server = createServer((request) => request.socket.destroy());
    server.on('upgrade', (_request, socket) => socket.destroy());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const message = await firstFailure(`http://127.0.0.1:${port}`);
    expect(message).toMatch(
      new RegExp(
        `^market-data hub unreachable at http://127\\.0\\.0\\.1:${port}/marketdata/info: connection (reset|closed)$`,
      ),
    );
  });

  it('keeps the SignalR hint for a server that answers with something else', async () => {
    server = createServer((_request, response) => response.writeHead(404).end('not here'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const message = await firstFailure(`http://127.0.0.1:${port}`);
    expect(message).toBe(
      `market-data hub at http://127.0.0.1:${port}/marketdata/info answered the websocket upgrade with HTTP 404: it may not be a SignalR endpoint`,
    );
  });
});
