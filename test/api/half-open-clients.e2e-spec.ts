import { connect } from 'node:net';
import { resolvesWithin } from '../support/resolves-within';
import { StreamClient } from '../support/stream-client';
import { startTestStack, TestStack } from '../support/start-test-stack';

/**
 * Writes `text` on a new connection to the stack's API and returns what the server answered once it
 * ended its side; the client keeps its own side open until the test ends.
 */
async function answerTo(stack: TestStack, text: string, open: { destroy(): void }[]): Promise<string> {
  const socket = connect({
    port: Number(new URL(stack.app.url).port),
    host: '127.0.0.1',
    allowHalfOpen: true,
  });
  open.push(socket);
  socket.on('error', () => undefined);
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
  socket.write(text);
  await ended;
  return answer;
}

describe('a client that keeps its side open after the API answered and ended', () => {
  let stack: TestStack;
  const open: { destroy(): void; close?(): void }[] = [];

  beforeEach(async () => {
    // A request timeout longer than the drain is given, so that only the server's letting go ends it.
    stack = await startTestStack({
      redis: false,
      tuning: { streamMaxConnectionsPerAddress: 1, requestTimeoutMs: 60000 },
    });
  });
  afterEach(async () => {
    for (const socket of open.splice(0)) socket.destroy();
    await stack?.close();
  });

  // The drain waits for every connection to end: a socket the server kept after its answer would hold it.
  it('does not hold up the drain after a refused stream upgrade', async () => {
    const reader = new StreamClient(stack.app.url);
    await reader.opened;
    const key = Buffer.from('sixteen byte key').toString('base64');
    const answer = await answerTo(
      stack,
      'GET /stream HTTP/1.1\r\nHost: gateway\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${key}\r\n\r\n`,
      open,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 429 /);
    reader.close();
    expect(await resolvesWithin(stack.app.closeHttp(), 15_000)).toBe(true);
  });

  it('does not hold up the drain after a malformed request', async () => {
    const answer = await answerTo(stack, 'NOT HTTP AT ALL\r\n\r\n', open);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(await resolvesWithin(stack.app.closeHttp(), 15_000)).toBe(true);
  });
});
