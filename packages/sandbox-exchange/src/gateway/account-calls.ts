import { Clock } from '../simulation/clock';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { LoginSessions } from '../users/login-sessions';
import { SandboxUser } from '../users/sandbox-user';
import { SandboxUsers } from '../users/sandbox-users';
import { GatewayCatalog, OMS_ID } from './gateway-catalog';
import { GatewayConnection } from './gateway-connection';
import { GatewayFunctions } from './gateway-functions';
import { GatewayCallError, GatewayErrorCode } from './gateway-result';
import { optionalInteger } from './payload-fields';
import { selectTradeHistory } from './trade-history';
import { parseTradeHistoryQuery } from './trade-history-query';

export interface AccountCallSources {
  readonly exchange: SandboxExchange;
  readonly catalog: GatewayCatalog;
  readonly users: SandboxUsers;
  readonly sessions: LoginSessions;
  readonly clock: Clock;
}

/** The user of an authenticated socket; Not Authorized otherwise. */
export function requireUser(connection: GatewayConnection): SandboxUser {
  if (!connection.user) throw new GatewayCallError(GatewayErrorCode.NotAuthorized);
  return connection.user;
}

/** Authentication and the calls about the user's own accounts and trades. */
export function registerAccountCalls(functions: GatewayFunctions, sources: AccountCallSources): void {
  const { exchange, catalog, users, sessions, clock } = sources;

  /**
   * `SessionToken` is the login's `token`. On a socket opened with a `session_token`, only the token
   * of that same login authenticates; a failed attempt leaves the socket as it was.
   */
  functions.register('WebAuthenticateUser', (connection, payload) => {
    const token = payload.SessionToken;
    const session = typeof token === 'string' ? sessions.withToken(token) : undefined;
    if (!session || (connection.urlSession && connection.urlSession !== session))
      return { Authenticated: false };
    connection.authenticated = session;
    const { user } = session;
    return {
      Authenticated: true,
      SessionToken: session.token,
      UserId: user.userId,
      User: {
        UserId: user.userId,
        UserName: user.email,
        Email: user.email,
        EmailVerified: true,
        AccountId: user.accounts[0],
        OMSId: OMS_ID,
        Use2FA: false,
      },
      Locked: false,
      Requires2FA: false,
      EnforceEnable2FA: false,
      TwoFAType: null,
      TwoFAToken: null,
      errormsg: null,
    };
  });

  /** The caller's accounts; the operator may ask for another user's. */
  functions.register('GetUserAccounts', (connection, payload) => {
    const caller = requireUser(connection);
    const userId = optionalInteger(payload, 'UserId') ?? caller.userId;
    if (userId === caller.userId) return caller.accounts;
    if (!caller.operator) throw new GatewayCallError(GatewayErrorCode.NotAuthorized);
    const user = users.withUserId(userId);
    if (!user) throw new GatewayCallError(GatewayErrorCode.ResourceNotFound, `no user ${userId}`);
    return user.accounts;
  });

  /** Needs an authenticated user: the history is of the caller's accounts (all, for the operator). */
  functions.register('GetTradesHistory', (connection, payload) => {
    const caller = requireUser(connection);
    if (exchange.faults.isOn('trade-history-down'))
      throw new GatewayCallError(GatewayErrorCode.ServerError, 'the trade history is unavailable');
    const query = parseTradeHistoryQuery(payload, caller, users, clock.now());
    if (query.instrumentId !== undefined && !exchange.marketById(query.instrumentId))
      throw new GatewayCallError(GatewayErrorCode.ResourceNotFound, `no instrument ${query.instrumentId}`);
    return selectTradeHistory(
      {
        markets: exchange.all(),
        originatorOf: (accountId) => users.ownerOfAccount(accountId)?.userId ?? 0,
        productIdOf: (asset) => catalog.productId(asset),
      },
      query,
    );
  });
}
