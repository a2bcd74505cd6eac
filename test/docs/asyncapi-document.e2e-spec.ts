import type { OpenAPIObject } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asyncApiProblems, AsyncApiDocument, StreamContract } from '../support/stream-contract';
import { startTestStack, TestStack } from '../support/start-test-stack';

describe('the AsyncAPI document of /stream', () => {
  let stack: TestStack;
  let document: AsyncApiDocument;

  beforeAll(async () => {
    stack = await startTestStack({
      redis: false,
      credentials: false,
      tuning: { streamMaxSubscriptions: 7, streamHeartbeatMs: 1234 },
    });
    const response = await fetch(`${stack.app.url}/docs/asyncapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    document = (await response.json()) as AsyncApiDocument;
  });
  afterAll(() => stack.close());

  it('is a valid AsyncAPI 3.0 document', () => {
    expect(document.asyncapi).toBe('3.0.0');
    expect(asyncApiProblems(document)).toEqual([]);
  });

  it('would be found invalid with a broken payload schema, so the check above means something', () => {
    const broken = structuredClone(document) as unknown as {
      components: { messages: Record<string, object> };
    };
    broken.components.messages.serverPong = { payload: { type: 'strng' } };
    expect(asyncApiProblems(broken)).not.toEqual([]);
  });

  it("carries package.json's version and this process's limits", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect((document.info as { version: string }).version).toBe(manifest.version);
    const channel = (document.channels as Record<string, Record<string, unknown>>).stream;
    expect(channel.address).toBe('/stream');
    expect(channel['x-limits']).toMatchObject({ maxSubscriptions: 7, heartbeatMs: 1234 });
    expect((channel['x-close-codes'] as { code: number }[]).map((close) => close.code)).toEqual([
      1012, 4008, 1009,
    ]);
  });

  it('describes every request and frame type, each message told apart by its payload alone', () => {
    const contract = new StreamContract(document);
    expect(contract.names('receive').sort()).toEqual(['ping', 'subscribe', 'unsubscribe']);
    expect(contract.names('send').sort()).toEqual(
      [
        'candle',
        'error',
        'heartbeat',
        'pong',
        'shutdown',
        'snapshot',
        'status',
        'subscribed',
        'ticker',
        'trades',
        'unsubscribed',
        'update',
      ].sort(),
    );
    expect(contract.matches('receive', { op: 'subscribe', channels: ['book.BTC-USDT', 'ticker'] })).toEqual([
      'subscribe',
    ]);
    expect(contract.matches('receive', { op: 'ping', id: 'a client tag' })).toEqual(['ping']);
    expect(contract.matches('receive', { op: 'subscribe', channels: new Array(8).fill('ticker') })).toEqual(
      [],
    );
    expect(contract.matches('send', { type: 'pong', extra: 1 })).toEqual([]);
  });

  it('is named by the OpenAPI document', async () => {
    const openApi = (await (await fetch(`${stack.app.url}/docs-json`)).json()) as OpenAPIObject;
    expect(openApi.info.description).toContain('/docs/asyncapi.json');
    expect(openApi.info.description).toContain('/stream');
  });
});
