import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { WebSocket, WebSocketServer } from 'ws';
import { ExactJson } from '../../src/upstream/exact-json';
import { GatewayClient } from '../../src/upstream/gateway/gateway-client';
import { GatewayClientOptions } from '../../src/upstream/gateway/gateway-client-options';
import { GatewayPayloadError } from '../../src/upstream/gateway/gateway-payload-error';
import { CapturingLogger } from '../../src/upstream/gateway/testing/capturing-logger';
import { waitUntil } from '../../src/upstream/gateway/testing/wait-until';

interface Frame {
  readonly m: number;
  readonly i: number;
  readonly n: string;
  readonly o: string;
}

/** What the scripted gateway answers to one request; undefined: the default answer. */
type Script = (frame: Frame, socket: WebSocket) => string[] | undefined;

function frame(m: number, i: number, n: string, o: string): string {
  return JSON.stringify({ m, i, n, o });
}

/**
 * A scripted gateway on a real socket: a login endpoint handing out numbered tokens and a websocket
 * gateway that answers Ping with `{"msg":"PONG"}`, WebAuthenticateUser with true, and whatever the
 * test's script says otherwise.
 */
class ScriptedGateway {
  readonly requests: { readonly connection: number; readonly frame: Frame; readonly url: string }[] = [];
  logins = 0;
  connections = 0;
  script: Script = () => undefined;
  private readonly http: Server;
  private readonly ws = new WebSocketServer({ noServer: true });

  constructor() {
    this.http = createServer((request, response) => this.login(request, response));
    this.http.on('upgrade', (request, socket, head) =>
      this.ws.handleUpgrade(request, socket, head, (ws) => this.accept(ws, request.url ?? '')),
    );
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const client of this.ws.clients) client.terminate();
    await new Promise<void>((resolve) => this.ws.close(() => resolve()));
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private login(request: IncomingMessage, response: ServerResponse): void {
    request.resume();
    request.on('end', () => {
      this.logins += 1;
      response.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      response.end(JSON.stringify({ data: { session_token: `s${this.logins}`, token: `t${this.logins}` } }));
    });
  }

  private accept(socket: WebSocket, url: string): void {
    const connection = ++this.connections;
    socket.on('message', (data) => {
      const request = JSON.parse(String(data)) as Frame;
      this.requests.push({ connection, frame: request, url });
      const scripted = this.script(request, socket);
      for (const text of scripted ?? this.defaultAnswer(request)) socket.send(text);
    });
  }

  private defaultAnswer({ i, n }: Frame): string[] {
    if (n === 'Ping') return [frame(1, i, n, '{"msg":"PONG"}')];
    if (n === 'WebAuthenticateUser') return [frame(1, i, n, '{"Authenticated":true,"UserId":1}')];
    return [frame(1, i, n, '{"result":true,"errormsg":null,"errorcode":0,"detail":null}')];
  }
}

describe('gateway client: protocol details', () => {
  let gateway: ScriptedGateway;
  let address: string;
  let client: GatewayClient | undefined;
  const logger = new CapturingLogger();

  function start(options: Partial<GatewayClientOptions> = {}): GatewayClient {
    client = new GatewayClient({
      wsUrl: `ws://${address}/`,
      authUrl: `http://${address}`,
      credentials: { email: 'someone@example.com', password: 'p4ssw0rd' },
      pingIntervalMs: 60_000,
      requestTimeoutMs: 1_000,
      reconnect: { initialDelayMs: 20, maxDelayMs: 50 },
      logger,
      ...options,
    });
    client.start();
    return client;
  }

  beforeEach(async () => {
    gateway = new ScriptedGateway();
    address = await gateway.listen();
  });

  afterEach(async () => {
    await client?.stop();
    client = undefined;
    await gateway.close();
  });

  afterAll(() => {
    expect(logger.lines.join('\n')).not.toMatch(/p4ssw0rd|someone@|\bt\d\b|\bs\d\b/);
  });

  it('numbers requests 2, 4, 6... per connection, with the payload as a JSON string', async () => {
    const made = start();
    await made.whenConnected();
    await made.request('GetProducts', { OMSId: 1 });
    await made.request('GetInstruments', { OMSId: 1 });
    expect(gateway.requests.map(({ frame: { m, i, n, o } }) => [m, i, n, o])).toEqual([
      [0, 2, 'WebAuthenticateUser', '{"SessionToken":"t1"}'],
      [0, 4, 'GetProducts', '{"OMSId":1}'],
      [0, 6, 'GetInstruments', '{"OMSId":1}'],
    ]);
    expect(gateway.requests[0].url).toBe('/WSGateway/?session_token=s1');
    // Nothing printed of the client object reveals the login.
    const printed = inspect(made, { depth: 10, showHidden: true });
    expect(printed).not.toContain('p4ssw0rd');
    expect(printed).not.toContain('someone@');
  });

  it('settles calls by the i of their reply, not by order, and never by an event number', async () => {
    gateway.script = ({ i, n }, socket) => {
      if (n === 'Slow') {
        setTimeout(() => socket.send(frame(1, i, n, '"slow"')), 50);
        return [];
      }
      // An event whose counter equals the pending call's number must not answer it.
      if (n === 'Fast') return [frame(3, i - 2, 'Level2UpdateEvent', '[]'), frame(1, i, n, '"fast"')];
      return undefined;
    };
    const made = start();
    await made.whenConnected();
    const order: string[] = [];
    const slow = made.request('Slow').then((reply) => order.push(String(reply)));
    const fast = made.request('Fast').then((reply) => order.push(String(reply)));
    await Promise.all([slow, fast]);
    expect(order).toEqual(['fast', 'slow']);
  });

  it('accepts the old plain PONG answer to Ping', async () => {
    gateway.script = ({ i, n }) => (n === 'Ping' ? [frame(1, i, n, 'PONG')] : undefined);
    const made = start({ pingIntervalMs: 20, pongTimeoutMs: 200 });
    await waitUntil(() => made.counters.pongs >= 3, 10_000, 'three pongs');
    expect(made.counters.malformedFrames).toBe(0);
    expect(made.counters.pongTimeouts).toBe(0);
  });

  it('delivers the events written right behind the subscribe reply, after the reply, routed by instrument', async () => {
    gateway.script = ({ i, n }) => {
      if (n !== 'SubscribeLevel2') return undefined;
      // The reply and its first events in one go, as a busy gateway writes them; one of another instrument.
      return [
        frame(1, i, n, '[[10,1,100,0,0,1,5.0,1,2,0]]'),
        frame(3, 1, 'Level2UpdateEvent', '[[11,1,101,1,0,1,5.0,1,3,0]]'),
        frame(3, 2, 'Level2UpdateEvent', '[[12,1,102,1,0,1,7.0,2,3,0]]'),
        frame(3, 3, 'Level2UpdateEvent', '[[13,1,103,2,0,0,5.0,1,0,0]]'),
      ];
    };
    const made = start();
    const seen: string[] = [];
    made.subscribe({
      subscribe: { name: 'SubscribeLevel2', payload: { OMSId: 1, InstrumentId: 1, Depth: 10 } },
      unsubscribe: { name: 'UnsubscribeLevel2', payload: { OMSId: 1, InstrumentId: 1 } },
      events: ['Level2UpdateEvent'],
      matches: (payload: ExactJson) => Array.isArray(payload) && (payload[0] as string[])[7] === '1',
      onReply: (payload) => seen.push(`reply ${(payload as string[][])[0][0]}`),
      onEvent: (_name, payload) => seen.push(`event ${(payload as string[][])[0][0]}`),
    });
    await waitUntil(() => seen.length === 3, 10_000, 'reply and events');
    expect(seen).toEqual(['reply 10', 'event 11', 'event 13']);
  });

  it('answers 909 by unsubscribing and subscribing again, to get the snapshot', async () => {
    let subscribes = 0;
    gateway.script = ({ i, n }) => {
      if (n !== 'SubscribeTrades') return undefined;
      subscribes += 1;
      if (subscribes === 1)
        return [
          frame(1, i, n, '{"result":false,"errormsg":"Already Subscribed.","errorcode":909,"detail":null}'),
        ];
      return [frame(1, i, n, '[]')];
    };
    const made = start();
    const replies: ExactJson[] = [];
    const errors: Error[] = [];
    made.subscribe({
      subscribe: { name: 'SubscribeTrades', payload: { OMSId: 1, InstrumentId: 1, IncludeLastCount: 10 } },
      unsubscribe: { name: 'UnsubscribeTrades', payload: { OMSId: 1, InstrumentId: 1 } },
      events: ['TradeDataUpdateEvent', 'OrderTradeEvent'],
      matches: () => true,
      onReply: (payload) => replies.push(payload),
      onEvent: () => undefined,
      onError: (error) => errors.push(error),
    });
    await waitUntil(() => replies.length === 1, 10_000, 'snapshot');
    expect(gateway.requests.map((request) => request.frame.n)).toEqual([
      'WebAuthenticateUser',
      'SubscribeTrades',
      'UnsubscribeTrades',
      'SubscribeTrades',
    ]);
    expect(errors).toEqual([]);
  });

  it('reports a subscription the gateway refuses, and keeps the connection', async () => {
    gateway.script = ({ i, n }) =>
      n === 'SubscribeLevel1'
        ? [frame(1, i, n, '{"result":false,"errormsg":"Resource Not Found","errorcode":104,"detail":"no 9"}')]
        : undefined;
    const made = start();
    const errors: Error[] = [];
    const subscription = made.subscribe({
      subscribe: { name: 'SubscribeLevel1', payload: { OMSId: 1, InstrumentId: 9 } },
      unsubscribe: { name: 'UnsubscribeLevel1', payload: { OMSId: 1, InstrumentId: 9 } },
      events: ['Level1UpdateEvent'],
      matches: () => true,
      onReply: () => undefined,
      onEvent: () => undefined,
      onError: (error) => errors.push(error),
    });
    await waitUntil(() => errors.length === 1, 10_000, 'refusal');
    expect(errors[0].message).toBe('SubscribeLevel1 failed with 104: Resource Not Found (no 9)');
    expect(subscription.active).toBe(false);
    await expect(subscription.restart()).rejects.toMatchObject({ code: 104 });
    expect(made.state).toBe('connected');
  });

  it('rejects a call whose reply payload is not JSON, counting the frame', async () => {
    gateway.script = ({ i, n }) => (n === 'GetProducts' ? [frame(1, i, n, '[{"Product":')] : undefined);
    const made = start();
    await expect(made.request('GetProducts', { OMSId: 1 })).rejects.toBeInstanceOf(GatewayPayloadError);
    expect(made.counters.malformedFrames).toBe(1);
    expect(await made.request('Ping')).toEqual({ msg: 'PONG' });
  });

  it('logs in again at once when WebAuthenticateUser refuses the token', async () => {
    gateway.script = ({ i, n, o }) =>
      n === 'WebAuthenticateUser' && o.includes('"t1"')
        ? [frame(1, i, n, '{"Authenticated":false}')]
        : undefined;
    const made = start();
    await made.whenConnected(2_000);
    expect(made.authenticated).toBe(true);
    expect(made.counters).toMatchObject({ logins: 2, authenticationFailures: 1, reconnects: 0 });
    expect(gateway.requests.filter((r) => r.frame.n === 'WebAuthenticateUser').map((r) => r.url)).toEqual([
      '/WSGateway/?session_token=s1',
      '/WSGateway/?session_token=s2',
    ]);
  });

  it('rejects pending calls when the connection drops, and serves calls again after reconnecting', async () => {
    gateway.script = ({ n }, socket) => {
      if (n !== 'Hang') return undefined;
      setTimeout(() => socket.terminate(), 20);
      return [];
    };
    const made = start();
    await made.whenConnected();
    await expect(made.request('Hang')).rejects.toThrow('the gateway connection closed');
    expect(await made.request('Ping')).toEqual({ msg: 'PONG' });
    expect(made.counters.reconnects).toBe(1);
    expect(gateway.connections).toBe(2);
  });
});
