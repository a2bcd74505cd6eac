import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AccountOrder } from '../accounts/account-order';
import { AccountRejection, RejectionReason } from '../accounts/account-rejection';
import { SandboxAccounts } from '../accounts/sandbox-accounts';
import { AccountStopOrder } from '../accounts/stop-order';
import { jsonNumber } from '../http/json-number';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { SandboxUser } from '../users/sandbox-user';
import { requireUser } from './account-calls';
import { Payload } from './frame-codec';
import { GatewayConnection } from './gateway-connection';
import { GatewayFunctions } from './gateway-functions';
import { GatewayCallError, GatewayErrorCode, succeeded } from './gateway-result';
import { GatewayServer } from './gateway-server';
import { clientOrderUuid } from './order-client-id';
import { OrderEvents } from './order-events';
import { GatewayOrderRecord, orderRecord, stopRecord } from './order-record';
import { parseOrderRequest } from './order-request';
import { optionalInteger } from './payload-fields';

/** Refusals of the accounts that mean the request itself was wrong, or named nothing. */
const INVALID: readonly RejectionReason[] = ['invalid_order'];
const NOT_FOUND: readonly RejectionReason[] = ['unknown_market', 'order_not_found', 'stop_order_not_found'];

function codeOf(reason: RejectionReason): GatewayErrorCode {
  if (INVALID.includes(reason)) return GatewayErrorCode.InvalidRequest;
  if (NOT_FOUND.includes(reason)) return GatewayErrorCode.ResourceNotFound;
  return GatewayErrorCode.OperationFailed;
}

/** SendOrder's reply. */
interface SendOrderReply {
  readonly status: 'Accepted' | 'Rejected';
  readonly errormsg: string;
  readonly OrderId: number;
  /** On a rejection: the generic code (spec 7.4) and the accounts' reason, e.g. `insufficient_balance`. */
  readonly errorcode?: number;
  readonly detail?: string | null;
}

/**
 * The gateway's private calls (spec 4.6), all after WebAuthenticateUser, on the accounts of the
 * private REST (an order placed here is the same order there): SendOrder, CancelOrder,
 * GetOpenOrders, GetOrderStatus, and SubscribeAccountEvents / UnsubscribeAccountEvents for the
 * order events. `AccountId` defaults to the caller's default account; a user acts only on their own
 * accounts (Not Authorized otherwise), the venue operator on any.
 */
@Injectable()
export class GatewayOrderCalls implements OnModuleInit, OnModuleDestroy {
  private events?: OrderEvents;
  /** Gateway `ClientOrderId`s of stop orders, which the accounts do not keep. */
  private readonly stopClientIds = new Map<number, bigint>();
  /** `OrderIdOCO` of orders placed with one. */
  private readonly ocoOf = new Map<number, number>();
  /** Stop orders cancelled here: the accounts forget them, the gateway still reports them. */
  private readonly cancelledStops = new Map<number, GatewayOrderRecord>();

  constructor(
    @Inject(GatewayFunctions) private readonly functions: GatewayFunctions,
    @Inject(GatewayServer) private readonly server: GatewayServer,
    @Inject(SandboxAccounts) private readonly accounts: SandboxAccounts,
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
  ) {}

  onModuleInit(): void {
    const events = new OrderEvents(this.accounts, this.exchange, this.server.catalog, (id) =>
      this.record(id),
    );
    this.events = events;
    const { functions } = this;
    functions.register('SendOrder', (connection, payload) => this.sendOrder(connection, payload));
    functions.register('CancelOrder', (connection, payload) => this.cancelOrder(connection, payload));
    functions.register('GetOpenOrders', (connection, payload) => {
      const accountId = this.account(requireUser(connection), payload);
      const stops = this.accounts
        .stopOrders(accountId)
        .filter((stop) => stop.status === 'WaitingForActivation')
        .map((stop) => this.record(stop.id)!);
      return [...this.accounts.openOrders(accountId).map((order) => this.record(order.id)!), ...stops].sort(
        (a, b) => a.ReceiveTime - b.ReceiveTime || a.OrderId - b.OrderId,
      );
    });
    functions.register('GetOrderStatus', (connection, payload) => {
      const caller = requireUser(connection);
      const accountId = optionalInteger(payload, 'AccountId');
      if (accountId !== undefined) this.account(caller, payload);
      const orderId = optionalInteger(payload, 'OrderId');
      if (!orderId) throw new GatewayCallError(GatewayErrorCode.InvalidRequest, 'OrderId is required');
      return this.owned(caller, orderId, accountId);
    });
    functions.register('SubscribeAccountEvents', (connection, payload) => {
      events.subscribe(connection, this.account(requireUser(connection), payload));
      return { Subscribed: true };
    });
    functions.register('UnsubscribeAccountEvents', (connection, payload) => {
      const accountId = this.account(requireUser(connection), payload);
      if (!events.unsubscribe(connection, accountId))
        throw new GatewayCallError(
          GatewayErrorCode.OperationFailed,
          `not subscribed to account ${accountId}`,
        );
      return succeeded();
    });
  }

  onModuleDestroy(): void {
    this.events?.close();
  }

  private sendOrder(connection: GatewayConnection, payload: Payload): SendOrderReply {
    try {
      const caller = requireUser(connection);
      const accountId = this.account(caller, payload);
      const instrumentId = optionalInteger(payload, 'InstrumentId');
      if (instrumentId === undefined)
        throw new GatewayCallError(GatewayErrorCode.InvalidRequest, 'InstrumentId is required');
      const market = this.exchange.marketById(instrumentId);
      if (!market)
        throw new GatewayCallError(GatewayErrorCode.ResourceNotFound, `no instrument ${instrumentId}`);
      const clientOrderId = BigInt(optionalInteger(payload, 'ClientOrderId') ?? 0);
      const parsed = parseOrderRequest(payload, market.instrument, clientOrderUuid(clientOrderId));
      if (parsed.kind === 'order') {
        const order = this.accounts.placeOrder(accountId, parsed.request);
        if (parsed.request.ocoOrderId !== undefined) this.ocoOf.set(order.id, parsed.request.ocoOrderId);
        return { status: 'Accepted', errormsg: '', OrderId: order.id };
      }
      const stop = this.accounts.createStopOrder(accountId, parsed.request);
      if (clientOrderId > 0n) this.stopClientIds.set(stop.id, clientOrderId);
      return { status: 'Accepted', errormsg: '', OrderId: stop.id };
    } catch (error) {
      if (error instanceof GatewayCallError) return rejected(error.code, error.message, error.detail, 0);
      if (error instanceof AccountRejection)
        return rejected(codeOf(error.reason), error.message, error.reason, error.orderId ?? 0);
      throw error;
    }
  }

  /**
   * `OrderId` names the order (with `AccountId` also given, it must be that account's); without it,
   * `AccountId` and `ClientOrderId` name the account's working order with that client id. A waiting
   * stop order is cancelled too. The caller gets an OrderStateEvent of the cancelled order.
   */
  private cancelOrder(connection: GatewayConnection, payload: Payload) {
    const caller = requireUser(connection);
    const orderId = optionalInteger(payload, 'OrderId') || undefined;
    const clientOrderId = BigInt(optionalInteger(payload, 'ClientOrderId') ?? 0);
    let target: { accountId: number; orderId: number };
    if (orderId !== undefined) {
      const given = optionalInteger(payload, 'AccountId');
      const found = this.owned(caller, orderId, given);
      target = { accountId: found.Account, orderId };
    } else {
      const accountId = optionalInteger(payload, 'AccountId');
      const uuid = clientOrderUuid(clientOrderId);
      if (accountId === undefined || uuid === undefined)
        throw new GatewayCallError(
          GatewayErrorCode.InvalidRequest,
          'OrderId, or AccountId and ClientOrderId, are required',
        );
      this.account(caller, payload);
      const order = this.accounts.order(accountId, uuid);
      const stopId = [...this.stopClientIds].find(
        ([id, client]) =>
          client === clientOrderId &&
          this.accounts.stopOrder(accountId, id)?.status === 'WaitingForActivation',
      )?.[0];
      const id = order?.status === 'Working' ? order.id : (stopId ?? order?.id);
      if (id === undefined)
        throw new GatewayCallError(
          GatewayErrorCode.ResourceNotFound,
          `no order with ClientOrderId ${clientOrderId}`,
        );
      target = { accountId, orderId: id };
    }
    try {
      const stop = this.accounts.stopOrder(target.accountId, target.orderId);
      if (stop) this.cancelStop(connection, stop);
      else {
        this.accounts.cancelOrder(target.accountId, String(target.orderId));
        // Subscribers of the account hear of it from the accounts; the caller always does.
        if (!this.events!.isSubscribed(connection, target.accountId))
          this.events!.orderState(this.record(target.orderId)!, connection, true);
      }
    } catch (error) {
      if (error instanceof AccountRejection) throw new GatewayCallError(codeOf(error.reason), error.message);
      throw error;
    }
    return succeeded();
  }

  /** A waiting stop order is deleted from the accounts and kept here as Canceled. */
  private cancelStop(connection: GatewayConnection, stop: AccountStopOrder): void {
    if (stop.status !== 'WaitingForActivation')
      throw new GatewayCallError(GatewayErrorCode.OperationFailed, `stop order ${stop.id} is ${stop.status}`);
    this.accounts.deleteStopOrder(stop.accountId, stop.id);
    const cancelled: GatewayOrderRecord = {
      ...stopRecord(stop, this.specOf(stop), this.stopClientIds.get(stop.id)),
      OrderState: 'Canceled',
      Quantity: jsonNumber(0n, 0),
      ChangeReason: 'UserModified',
    };
    this.cancelledStops.set(stop.id, cancelled);
    this.events!.orderState(cancelled, connection);
  }

  /** The account a call acts on: `AccountId`, or the caller's default account. */
  private account(caller: SandboxUser, payload: Payload): number {
    const accountId = optionalInteger(payload, 'AccountId');
    if (accountId === undefined) return caller.accounts[0];
    if (caller.accounts.includes(accountId)) return accountId;
    if (caller.operator && this.accounts.hasAccount(accountId)) return accountId;
    if (!this.accounts.hasAccount(accountId))
      throw new GatewayCallError(GatewayErrorCode.ResourceNotFound, `no account ${accountId}`);
    throw new GatewayCallError(GatewayErrorCode.NotAuthorized, `account ${accountId} is not the caller's`);
  }

  /**
   * The order (or stop order) with this id, if the caller may see it: their own, or any for the
   * operator; another user's is Not Authorized. With `accountId` given it must be the order's.
   */
  private owned(caller: SandboxUser, orderId: number, accountId: number | undefined): GatewayOrderRecord {
    const record = this.record(orderId);
    if (!record || (accountId !== undefined && record.Account !== accountId))
      throw new GatewayCallError(GatewayErrorCode.ResourceNotFound, `no order ${orderId}`);
    if (!caller.accounts.includes(record.Account) && !caller.operator)
      throw new GatewayCallError(GatewayErrorCode.NotAuthorized, `order ${orderId} is not the caller's`);
    return record;
  }

  /** The gateway order of an order or stop order id, whoever owns it. */
  private record(id: number): GatewayOrderRecord | undefined {
    const order = this.accounts.orderById(id);
    if (order)
      return orderRecord(order, this.specOf(order), {
        stop: this.stopThatPlaced(order),
        ocoOrderId: this.ocoOf.get(id),
      });
    const stop = this.accounts.stopOrderById(id);
    if (!stop) return this.cancelledStops.get(id);
    if (stop.status === 'Activated' && stop.activatedOrderId !== undefined) {
      const placed = this.accounts.orderById(stop.activatedOrderId);
      if (placed) return { ...orderRecord(placed, this.specOf(stop), { stop }), OrderId: stop.id };
    }
    return stopRecord(stop, this.specOf(stop), this.stopClientIds.get(stop.id));
  }

  private stopThatPlaced(order: AccountOrder): AccountStopOrder | undefined {
    if (order.source !== 1) return undefined;
    return this.accounts.stopOrders(order.accountId).find((stop) => stop.activatedOrderId === order.id);
  }

  private specOf(order: { readonly instrument: string }) {
    return this.exchange.market(order.instrument)!.spec;
  }
}

function rejected(
  code: GatewayErrorCode,
  errormsg: string,
  detail: string | null,
  orderId: number,
): SendOrderReply {
  return { status: 'Rejected', errormsg, errorcode: code, detail, OrderId: orderId };
}
