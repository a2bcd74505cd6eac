import { AccountEvent } from '../accounts/account-event';
import { SandboxAccounts } from '../accounts/sandbox-accounts';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { EncodedPayload } from './frame-codec';
import { GatewayCatalog } from './gateway-catalog';
import { GatewayConnection } from './gateway-connection';
import { GatewayOrderRecord, orderTradeRecord, positionRecord } from './order-record';

/**
 * The account events of the gateway, for sockets that called SubscribeAccountEvents for an account:
 * `OrderStateEvent` (the gateway order) when an order of the account changes, `OrderTradeEvent` for
 * each execution of one, `AccountPositionEvent` when a balance changes. They are sent after the
 * reply of the call that caused them, in the order the accounts announced the changes.
 */
export class OrderEvents {
  private readonly subscribers = new Map<number, Set<GatewayConnection>>();
  private readonly pending: {
    accountId: number;
    name: string;
    payload: EncodedPayload;
    only?: GatewayConnection;
  }[] = [];
  private readonly stopFollowing: () => void;

  constructor(
    private readonly accounts: SandboxAccounts,
    private readonly exchange: SandboxExchange,
    private readonly catalog: GatewayCatalog,
    private readonly recordOf: (orderId: number) => GatewayOrderRecord | undefined,
  ) {
    this.stopFollowing = accounts.events.subscribe((event) => this.onEvent(event));
  }

  close(): void {
    this.stopFollowing();
    this.subscribers.clear();
  }

  subscribe(connection: GatewayConnection, accountId: number): void {
    // Sockets that closed since are forgotten here, as nothing tells this class of a close.
    for (const subscribers of this.subscribers.values())
      for (const subscriber of subscribers) if (!subscriber.isOpen) subscribers.delete(subscriber);
    let connections = this.subscribers.get(accountId);
    if (!connections) {
      connections = new Set();
      this.subscribers.set(accountId, connections);
    }
    connections.add(connection);
  }

  unsubscribe(connection: GatewayConnection, accountId: number): boolean {
    return this.subscribers.get(accountId)?.delete(connection) ?? false;
  }

  isSubscribed(connection: GatewayConnection, accountId: number): boolean {
    return this.subscribers.get(accountId)?.has(connection) ?? false;
  }

  /**
   * An OrderStateEvent the accounts do not announce (a stop order cancelled), or that the caller of
   * CancelOrder gets without a subscription: to the account's subscribers and to `caller`, or to
   * `caller` alone.
   */
  orderState(record: GatewayOrderRecord, caller: GatewayConnection, callerOnly = false): void {
    const payload = EncodedPayload.of(record);
    if (!callerOnly) this.queue(record.Account, 'OrderStateEvent', payload);
    if (callerOnly || !this.isSubscribed(caller, record.Account))
      this.queue(record.Account, 'OrderStateEvent', payload, caller);
  }

  private onEvent(event: AccountEvent): void {
    const { accountId } = event;
    if (!this.subscribers.get(accountId)?.size) return;
    if (event.kind === 'order') {
      const record = this.recordOf(event.order.id);
      if (record) this.queue(accountId, 'OrderStateEvent', EncodedPayload.of(record));
    } else if (event.kind === 'trade') {
      const market = this.exchange.market(event.trade.instrument);
      if (!market) return;
      const order = this.accounts.orderById(event.trade.orderId);
      this.queue(
        accountId,
        'OrderTradeEvent',
        EncodedPayload.of(orderTradeRecord(event.trade, order, market.spec)),
      );
    } else if (event.kind === 'balance') {
      const position = positionRecord(accountId, event.balance, this.catalog.productId(event.balance.asset));
      this.queue(accountId, 'AccountPositionEvent', EncodedPayload.of(position));
    } else if (event.kind === 'stopOrder') {
      const record = this.recordOf(event.stopOrder.id);
      if (record) this.queue(accountId, 'OrderStateEvent', EncodedPayload.of(record));
    }
  }

  private queue(accountId: number, name: string, payload: EncodedPayload, only?: GatewayConnection): void {
    if (this.pending.length === 0) queueMicrotask(() => this.flush());
    this.pending.push({ accountId, name, payload, only });
  }

  private flush(): void {
    for (const { accountId, name, payload, only } of this.pending.splice(0)) {
      const connections = only ? [only] : [...(this.subscribers.get(accountId) ?? [])];
      for (const connection of connections) {
        if (connection.isOpen) connection.event(name, payload);
        else this.subscribers.get(accountId)?.delete(connection);
      }
    }
  }
}
