import { SandboxUser } from '../users/sandbox-user';
import { SandboxUsers } from '../users/sandbox-users';
import { Payload } from './frame-codec';
import { GatewayCallError, GatewayErrorCode } from './gateway-result';
import { optionalInteger } from './payload-fields';

/** What GetTradesHistory selects, after defaults and the caller's rights are applied. */
export interface TradeHistoryQuery {
  /** Accounts whose executions are returned; undefined: every account (the operator's view). */
  readonly accounts?: ReadonlySet<number>;
  readonly instrumentId?: number;
  readonly tradeId?: number;
  readonly orderId?: number;
  readonly executionId?: number;
  /** Unix milliseconds, inclusive. */
  readonly from: number;
  /** Unix milliseconds, inclusive. */
  readonly to: number;
  /** Executions to return from `startIndex`; undefined: all. */
  readonly depth?: number;
  /** 0 is the most recent execution; counts back in time. */
  readonly startIndex: number;
}

/** Below this a timestamp is read as POSIX seconds (1e11 s is the year 5138, 1e11 ms is 1973). */
const SECONDS_BELOW = 1e11;

/**
 * Reads a timestamp given in POSIX seconds or milliseconds. A bound in seconds covers its whole
 * second: an end of 1700000000 includes trades up to 1700000000.999.
 */
export function timestampMs(value: number, bound: 'start' | 'end'): number {
  if (value >= SECONDS_BELOW) return value;
  return bound === 'start' ? value * 1000 : value * 1000 + 999;
}

/**
 * GetTradesHistory's filters with their defaults:
 * - accounts: `AccountId` if given (a normal user only their own, else Not Authorized); otherwise
 *   the accounts of `UserId` if given (a normal user only themselves); otherwise a normal user's
 *   default account, and for the operator every account. `AccountId` and `UserId` together select
 *   the account only if that user owns it.
 * - `StartTimeStamp` default 0 (the start of the retained tape), `EndTimeStamp` default now, both
 *   inclusive, in POSIX seconds or milliseconds.
 * - `StartIndex` default 0 (most recent), `Depth` default all.
 */
export function parseTradeHistoryQuery(
  payload: Payload,
  caller: SandboxUser,
  users: SandboxUsers,
  now: number,
): TradeHistoryQuery {
  const accountId = optionalInteger(payload, 'AccountId');
  const userId = optionalInteger(payload, 'UserId');
  const start = optionalInteger(payload, 'StartTimeStamp');
  const end = optionalInteger(payload, 'EndTimeStamp');
  return {
    accounts: accountScope(caller, users, accountId, userId),
    instrumentId: optionalInteger(payload, 'InstrumentId'),
    tradeId: optionalInteger(payload, 'TradeId'),
    orderId: optionalInteger(payload, 'OrderId'),
    executionId: optionalInteger(payload, 'ExecutionId'),
    from: start === undefined ? 0 : timestampMs(start, 'start'),
    to: end === undefined ? now : timestampMs(end, 'end'),
    depth: optionalInteger(payload, 'Depth'),
    startIndex: optionalInteger(payload, 'StartIndex') ?? 0,
  };
}

function accountScope(
  caller: SandboxUser,
  users: SandboxUsers,
  accountId: number | undefined,
  userId: number | undefined,
): ReadonlySet<number> | undefined {
  if (userId !== undefined && userId !== caller.userId && !caller.operator)
    throw new GatewayCallError(GatewayErrorCode.NotAuthorized, `user ${userId} is not the caller`);
  if (accountId !== undefined && !caller.operator && !caller.accounts.includes(accountId))
    throw new GatewayCallError(GatewayErrorCode.NotAuthorized, `account ${accountId} is not the caller's`);
  const user = userId === undefined ? undefined : users.withUserId(userId);
  if (userId !== undefined && !user)
    throw new GatewayCallError(GatewayErrorCode.ResourceNotFound, `no user ${userId}`);
  if (accountId !== undefined) {
    return new Set(user && !user.accounts.includes(accountId) ? [] : [accountId]);
  }
  if (user) return new Set(user.accounts);
  return caller.operator ? undefined : new Set([caller.accounts[0]]);
}
