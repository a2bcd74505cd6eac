import { packageVersion } from '../package-version';
import { StreamLimits } from '../stream/stream-limits';
import { SERVICE_RESTART_CLOSE, TOO_SLOW_CLOSE } from '../stream/stream-reply';
import type { TSchema } from '@sinclair/typebox';
import { Contact, LICENSE } from '../schema/document-info';
import { clientFrames, SERVER_FRAMES } from '../stream/stream-schemas';

export const ASYNCAPI_PATH = '/docs/asyncapi.json';

const DESCRIPTION = `The live stream of the market-data gateway at \`GET /stream\`: order books (verifiable
by sequence numbers and a checksum), new trades, live bars (candles) and the \`/summary\` records as they change. Frames are
JSON text; decimals are strings in the listing endpoints' format.

This document describes the gateway: its \`send\` operation is what a client receives, its \`receive\`
operation what a client may send. The figures under \`x-limits\` are this process's limits of one
connection, which the descriptions name as \`x-limits.<name>\`. The HTTP API's OpenAPI document is at \`/docs-json\`.`;

/**
 * How a connection ends other than by the client: close codes, and upgrades the gateway refuses (or
 * a request of /stream without one).
 */
const CLOSE_CODES = [
  {
    code: SERVICE_RESTART_CLOSE,
    reason: 'service restart',
    when: 'after a shutdown message: the process stops; reconnect, to another replica',
  },
  {
    code: TOO_SLOW_CLOSE,
    reason: 'too slow',
    when: 'the socket held unsent frames for x-limits.maxBehindMs without once writing all out',
  },
  { code: 1009, when: 'a frame larger than four times x-limits.maxFrameBytes: it is not read' },
];
const UPGRADE_REFUSALS = [
  { status: 404, when: 'a websocket upgrade on any other path' },
  {
    status: 426,
    when: 'a GET or HEAD of /stream that asks for no upgrade (the answer carries Upgrade: websocket); another method gets 405',
  },
  {
    status: 429,
    when: 'the client address holds x-limits.maxConnectionsPerAddress connections already (the body is the API error body, code too_many_requests)',
  },
  { status: 503, when: 'the process is stopping' },
];

const STREAM_TAG = { name: 'stream', description: 'The websocket at /stream' };

const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);

function messages(payloads: Readonly<Record<string, TSchema>>, prefix: string) {
  return Object.fromEntries(
    Object.entries(payloads).map(([name, payload]) => [
      `${prefix}${pascal(name)}`,
      {
        name,
        title: name,
        summary: String(payload.description),
        contentType: 'application/json',
        // Plain JSON Schema: TypeBox's symbol keys are left out.
        payload: JSON.parse(JSON.stringify(payload)) as object,
      },
    ]),
  );
}

/** The AsyncAPI 3.0 document of `/stream`, with this process's limits. */
export function asyncApiDocument(limits: StreamLimits, contact: Contact, version = packageVersion()) {
  const received = messages(clientFrames(limits), 'client');
  const sent = messages(SERVER_FRAMES, 'server');
  const channelRefs = (names: string[]) =>
    names.map((name) => ({ $ref: `#/channels/stream/messages/${name}` }));
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Market-data gateway live stream',
      version,
      description: DESCRIPTION,
      contact,
      license: { name: LICENSE.name },
      tags: [STREAM_TAG],
    },
    defaultContentType: 'application/json',
    servers: {
      gateway: {
        host: '{host}',
        protocol: 'ws',
        description: 'every process that serves the API (roles all and api); wss behind a TLS ingress',
        variables: { host: { default: 'localhost:3000', description: "the API's host and port" } },
      },
    },
    channels: {
      stream: {
        address: '/stream',
        title: 'the live stream',
        description:
          'One websocket per reader, following up to x-limits.maxSubscriptions channels: book.{instrument}, trades.{instrument}, candles.{instrument}.{resolution} and ticker.',
        messages: Object.fromEntries(
          [...Object.keys(received), ...Object.keys(sent)].map((name) => [
            name,
            { $ref: `#/components/messages/${name}` },
          ]),
        ),
        bindings: { ws: { method: 'GET', bindingVersion: '0.1.0' } },
        'x-close-codes': CLOSE_CODES,
        'x-upgrade-refusals': UPGRADE_REFUSALS,
        'x-limits': { ...limits },
      },
    },
    operations: {
      receiveRequests: {
        action: 'receive',
        title: 'requests of a client',
        description:
          'What a client may send: subscribe and unsubscribe name channels, ping asks for a pong; each gets its answer frame.',
        channel: { $ref: '#/channels/stream' },
        tags: [STREAM_TAG],
        messages: channelRefs(Object.keys(received)),
      },
      sendFrames: {
        action: 'send',
        title: 'frames the gateway sends a client',
        description:
          'What the gateway sends: answers to requests, the messages of the channels followed, heartbeats and the shutdown notice.',
        channel: { $ref: '#/channels/stream' },
        tags: [STREAM_TAG],
        messages: channelRefs(Object.keys(sent)),
      },
    },
    components: { messages: { ...received, ...sent } },
  };
}
