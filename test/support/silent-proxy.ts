import { once } from 'node:events';
import { connect, createServer, Server, Socket } from 'node:net';

interface Pair {
  readonly sockets: readonly [Socket, Socket];
  silent: boolean;
}

/**
 * A TCP proxy on loopback in front of one server whose paths can go silent: bytes in either
 * direction are swallowed and nothing is closed, so only a client's own timeout can notice.
 */
export class SilentProxy {
  private partitioned = false;
  private readonly pairs = new Set<Pair>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<SilentProxy> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const proxy = new SilentProxy(server, (server.address() as { port: number }).port);
    server.on('connection', (client) => proxy.forward(client, targetPort));
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The connections open now go silent for good, as when a NAT entry is lost; new ones pass. */
  silenceOpenConnections(): void {
    for (const pair of this.pairs) pair.silent = true;
  }

  /** Every connection, open or new, goes silent until `heal()`, as across a network partition. */
  partition(): void {
    this.partitioned = true;
    this.silenceOpenConnections();
  }

  /** New connections pass again; those silenced are cut, their peers gave up on them long ago. */
  heal(): void {
    this.partitioned = false;
    for (const pair of this.pairs) if (pair.silent) this.cut(pair);
  }

  async close(): Promise<void> {
    for (const pair of this.pairs) this.cut(pair);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(client: Socket, targetPort: number): void {
    const pair: Pair = { sockets: [client, connect(targetPort, '127.0.0.1')], silent: this.partitioned };
    this.pairs.add(pair);
    const [, target] = pair.sockets;
    const relay = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (!pair.silent) to.write(chunk);
      });
    relay(client, target);
    relay(target, client);
    for (const socket of pair.sockets) {
      socket.on('error', () => undefined);
      // A close does not cross a silent path either.
      socket.on('close', () => pair.silent || this.cut(pair));
    }
  }

  private cut(pair: Pair): void {
    this.pairs.delete(pair);
    for (const socket of pair.sockets) socket.destroy();
  }
}
