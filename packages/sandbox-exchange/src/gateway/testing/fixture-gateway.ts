import { WebSocket } from 'ws';
import { SandboxExchange } from '../../simulation/sandbox-exchange';
import { demoUser } from '../../users/users-file';
import { LoginSessions } from '../../users/login-sessions';
import { SandboxUsers } from '../../users/sandbox-users';
import { registerAccountCalls } from '../account-calls';
import { GatewayCatalog } from '../gateway-catalog';
import { GatewayConnection } from '../gateway-connection';
import { GatewayDispatcher } from '../gateway-dispatcher';
import { GatewayFunctions } from '../gateway-functions';
import { Level1Feed } from '../level1-feed';
import { Level2Feed } from '../level2-feed';
import { registerMarketDataCalls } from '../market-data-calls';
import { SessionStatusBook } from '../session-status';
import { TradeFeed } from '../trade-feed';

/** The part of a websocket a gateway connection uses, keeping what it is sent. */
class RecordingSocket {
  readonly readyState = WebSocket.OPEN;
  readonly bufferedAmount = 0;
  readonly sent: string[] = [];

  send(text: string): void {
    this.sent.push(text);
  }

  close(): void {}

  terminate(): void {}
}

/** The user of the fixtures' account 7 (`gateway/trade-history.json`). */
const FIXTURE_USER = { ...demoUser(), userId: 3, accounts: [7], operator: false };

export interface FixtureGateway {
  readonly catalog: GatewayCatalog;
  readonly level1: Level1Feed;
  readonly level2: Level2Feed;
  readonly trades: TradeFeed;
  readonly connection: GatewayConnection;
  /** Dispatches one client frame and returns the frames sent back. */
  call(request: string): string[];
  /** Frames sent since the last call, events included. */
  sent(): string[];
}

/**
 * The sandbox's gateway over the fixtures' exchange, as the server wires it, with one connection
 * authenticated as the fixtures' user whose output is recorded instead of sent.
 */
export function fixtureGateway(exchange: SandboxExchange): FixtureGateway {
  const catalog = new GatewayCatalog(exchange, new SessionStatusBook(exchange));
  const level1 = new Level1Feed(exchange.clock);
  const level2 = new Level2Feed();
  const trades = new TradeFeed('OrderTradeEvent');
  const functions = new GatewayFunctions();
  registerMarketDataCalls(functions, { catalog, level1, level2, trades });
  const sessions = new LoginSessions(exchange.clock);
  const users = new SandboxUsers([FIXTURE_USER]);
  registerAccountCalls(functions, { exchange, catalog, users, sessions, clock: exchange.clock });
  const dispatcher = new GatewayDispatcher(functions);
  const socket = new RecordingSocket();
  const connection = new GatewayConnection(socket as unknown as WebSocket, undefined, () => false);
  connection.authenticated = sessions.open(FIXTURE_USER);
  const sent = () => socket.sent.splice(0);
  return {
    catalog,
    level1,
    level2,
    trades,
    connection,
    call: (request) => {
      sent();
      dispatcher.dispatch(connection, request);
      return sent();
    },
    sent,
  };
}
