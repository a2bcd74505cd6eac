import { WebSocket } from 'ws';
import { FrameType } from '../upstream/gateway/gateway-frame';
import { PlayerState } from './player-state';

interface RequestFrame {
  readonly m: number;
  readonly i: number;
  readonly n: string;
  readonly o: string;
}

/** The calls that subscribe a connection to an instrument's events, and those that end it. */
const SUBSCRIBE = new Set(['SubscribeLevel1', 'SubscribeLevel2', 'SubscribeTrades']);
const UNSUBSCRIBE = new Set(['UnsubscribeLevel1', 'UnsubscribeLevel2', 'UnsubscribeTrades']);

/**
 * The websocket gateway as the player serves it: each call is answered with the newest reply the
 * recording holds of it (for the instrument asked about), Ping and the login as any gateway does, and
 * each recorded event goes to the connections subscribed to one of its instruments.
 */
export class PlayerGateway {
  /** The instruments each connection subscribed to. */
  private readonly subscribed = new Map<WebSocket, Set<number>>();

  constructor(private readonly state: PlayerState) {}

  accept(socket: WebSocket): void {
    this.subscribed.set(socket, new Set());
    socket.on('close', () => this.subscribed.delete(socket));
    socket.on('message', (data) => {
      let request: RequestFrame;
      try {
        request = JSON.parse(data.toString()) as RequestFrame;
      } catch {
        return;
      }
      this.answer(socket, request);
    });
  }

  /** A recorded event frame, to every connection subscribed to one of `instruments`. */
  send(frame: string, instruments: readonly number[]): void {
    for (const [socket, ids] of this.subscribed)
      if (instruments.some((id) => ids.has(id)) && socket.readyState === WebSocket.OPEN) socket.send(frame);
  }

  private answer(socket: WebSocket, request: RequestFrame): void {
    const reply = (payload: string, type = FrameType.Reply) =>
      socket.readyState === WebSocket.OPEN &&
      socket.send(JSON.stringify({ m: type, i: request.i, n: request.n, o: payload }));
    const asked = parsePayload(request.o);
    const instrumentId = Number.isSafeInteger(asked.InstrumentId)
      ? (asked.InstrumentId as number)
      : undefined;
    if (request.n === 'Ping') return void reply('PONG');
    if (request.n === 'WebAuthenticateUser')
      return void reply(JSON.stringify({ Authenticated: true, UserId: 1 }));
    if (UNSUBSCRIBE.has(request.n)) {
      if (instrumentId !== undefined) this.subscribed.get(socket)?.delete(instrumentId);
      return void reply(JSON.stringify({ result: true }));
    }
    // Its pages cannot be told apart in the recording; the subscriptions' own snapshots carry the trades.
    if (request.n === 'GetTradesHistory') return void reply('[]');
    const recorded =
      this.state.reply(request.n, SUBSCRIBE.has(request.n) ? instrumentId : undefined) ??
      // A market without trades, or a Level 2 never recorded: nothing to start from yet.
      (request.n === 'SubscribeTrades' || request.n === 'SubscribeLevel2' ? '[]' : undefined);
    if (recorded === undefined)
      return void reply(
        JSON.stringify({ result: false, errormsg: 'Not in the recording', errorcode: 104 }),
        FrameType.Error,
      );
    if (SUBSCRIBE.has(request.n) && instrumentId !== undefined)
      this.subscribed.get(socket)?.add(instrumentId);
    reply(recorded);
  }
}

function parsePayload(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
