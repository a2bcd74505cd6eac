import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { RecordedItem } from '../recording/recording-format';
import { RecordingReader } from '../recording/recording-reader';
import { PlayerGateway } from './player-gateway';
import { PlayerHub } from './player-hub';
import { levelsJson, PlayerState } from './player-state';
import { RecordingFile } from './recording-files';

export interface PlayerOptions {
  /** One process's files, oldest first. */
  readonly files: readonly RecordingFile[];
  /** Recording time passes this many times faster than real time; Infinity plays as fast as it can. */
  readonly speed: number;
  /** Unix ms: records before it are taken into the state at once, without waiting or sending. */
  readonly from?: number;
  /** Unix ms: the play stops here, and the player keeps serving the state it reached. */
  readonly to?: number;
  readonly host: string;
  readonly port: number;
  /** Told of what could not be read, and when the play ends. */
  readonly report: (line: string) => void;
}

/** At full speed, the player lets its clients in every this many records. */
const YIELD_EVERY = 256;
const DEPTH_PATH = /^\/marketdata\/instruments\/([^/?]+)\/depth$/;

/**
 * Serves a recording as the exchange it was recorded from: the market-data hub, the websocket
 * gateway and the public REST at their usual paths, each record sent on at its recorded moment
 * (scaled by the speed). At the end it keeps serving the state it reached.
 */
export class RecordingPlayer {
  private readonly state = new PlayerState();
  private readonly hub = new PlayerHub(this.state);
  private readonly gateway = new PlayerGateway(this.state);
  private readonly server: Server;
  private stopped = false;
  /** Resolves when the last record was played. */
  ended!: Promise<{ records: number }>;

  private constructor(private readonly options: PlayerOptions) {
    this.server = createServer((request, response) => this.http(request, response));
    const sockets = new WebSocketServer({ noServer: true });
    this.server.on('upgrade', (request, socket, head) => {
      const path = (request.url ?? '').split('?')[0];
      const accept =
        path === '/marketdata/info'
          ? this.hub
          : path.replace(/\/+$/, '') === '/WSGateway'
            ? this.gateway
            : undefined;
      if (accept) sockets.handleUpgrade(request, socket, head, (ws) => accept.accept(ws));
      else socket.destroy();
    });
  }

  static async start(options: PlayerOptions): Promise<RecordingPlayer> {
    const player = new RecordingPlayer(options);
    await new Promise<void>((resolve, reject) => {
      player.server.once('error', reject);
      player.server.listen(options.port, options.host, () => resolve());
    });
    player.ended = player.play();
    return player;
  }

  get url(): string {
    const { address, port } = this.server.address() as AddressInfo;
    return `http://${address}:${port}`;
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async play(): Promise<{ records: number }> {
    const { from = -Infinity, to = Infinity } = this.options;
    let records = 0;
    let origin: { at: number; played: number } | undefined;
    let ended = false;
    for (const file of this.options.files) {
      if (ended) break;
      const reader = new RecordingReader(file.path);
      for await (const item of reader.items()) {
        if ((ended = this.stopped || item.at > to)) break;
        if (item.at >= from) {
          origin ??= { at: item.at, played: performance.now() };
          await this.waitFor(item, origin, ++records);
        }
        const played = this.state.play(item);
        if (!played || item.at < from) continue;
        if (played.to === 'hub') this.hub.send(played.instrument, played.record);
        else this.gateway.send(played.frame, played.instruments);
      }
      for (const message of reader.messages()) this.options.report(message);
    }
    this.options.report(`played ${records} records; serving the state they left`);
    return { records };
  }

  /** Until the record's moment on the player's clock; at full speed, a turn for the clients now and then. */
  private async waitFor(
    item: RecordedItem,
    origin: { at: number; played: number },
    count: number,
  ): Promise<void> {
    if (this.options.speed === Infinity) {
      if (count % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      return;
    }
    const due = origin.played + (item.at - origin.at) / this.options.speed - performance.now();
    if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
  }

  private http(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '/';
    const path = url.split('?')[0];
    const json = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(body);
    };
    if (request.method === 'POST' && path.endsWith('/auth'))
      return json(200, JSON.stringify({ session_token: 'replay', token: 'replay' }));
    const depth = DEPTH_PATH.exec(path);
    if (depth) {
      const instrument = decodeURIComponent(depth[1]).toLowerCase();
      const book = this.state.book(instrument);
      if (!book) return json(404, notFound(`Unknown instrument ${instrument}`));
      return json(
        200,
        `{"instrument":${JSON.stringify(instrument)},"version":${book.version},` +
          `"bids":${levelsJson([...book.bids].reverse())},"asks":${levelsJson(book.asks)}}`,
      );
    }
    const recorded = this.state.restAnswer(url);
    if (recorded === undefined) return json(404, notFound(`Not in the recording: ${path}`));
    json(200, recorded);
  }
}

function notFound(message: string): string {
  return JSON.stringify({ errors: [{ code: 404, message }] });
}
