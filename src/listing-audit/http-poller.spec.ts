import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { fetchEndpoint } from './http-poller';

describe('fetchEndpoint', () => {
  let server: Server;
  let base: string;
  const seen: Record<string, string | undefined>[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({
        encoding: request.headers['accept-encoding'],
        authorization: request.headers.authorization,
      });
      if (request.url === '/api/v1/gzip') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(gzipSync('{"last":1.5e-7,"id":12345678901234567890}'));
      } else if (request.url === '/api/v1/html') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      }
      // Any other path never answers.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('asks for gzip without credentials, decodes it, and keeps numbers as written', async () => {
    const answer = await fetchEndpoint(base, '/gzip', 5000);
    expect(seen[0]).toEqual({ encoding: 'gzip', authorization: undefined });
    expect(answer).toMatchObject({ path: '/gzip', status: 200, contentEncoding: 'gzip' });
    expect(JSON.stringify(answer.json)).toContain('1.5e-7');
    expect(JSON.stringify(answer.json)).toContain('12345678901234567890');
  });

  it('keeps a body that is not JSON apart', async () => {
    const answer = await fetchEndpoint(base, '/html', 5000);
    expect(answer.json).toBeUndefined();
    expect(answer.jsonError).toBeDefined();
    expect(answer.headers['content-type']).toBe('text/html');
  });

  it('gives up on an answer that does not come within the time bound', async () => {
    const answer = await fetchEndpoint(base, '/silent', 100);
    expect(answer.status).toBeUndefined();
    expect(answer.error).toBe('no whole answer within 100 ms');
  });
});
