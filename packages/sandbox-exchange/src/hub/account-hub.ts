import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AccountEvent } from '../accounts/account-event';
import { BALANCE_SCALE } from '../accounts/balance-units';
import { SandboxAccounts } from '../accounts/sandbox-accounts';
import { jsonNumber, toJson } from '../http/json-number';
import { orderView } from '../private-rest/order-view';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { SandboxUser } from '../users/sandbox-user';
import { HubMethods, StreamSink, stringArguments } from './hub-method';

type Channel = 'openOrders' | 'balance' | 'balanceUpdates';

interface Subscriber {
  readonly accountId: number;
  readonly channel: Channel;
  readonly sink: StreamSink;
}

/**
 * The private hub's methods (spec 4.3, 6.2), streams of the caller's default account (the account
 * the private REST acts on):
 * - `OpenOrders()`: the list of the account's working orders as REST order objects (spec 2.4), at
 *   once and again after every change of any of its orders (an order that stopped working leaves it);
 * - `Balance()`: `{ asset: available }` for every asset the account holds, at once and after every
 *   balance change;
 * - `BalanceUpdates()`: `{ assetId, available, orderLocked, transferLocked }` per asset, every asset
 *   at once, then each asset whose figures changed.
 * The changes of one operation (an order placed with its fills, a batch of the synthetic flow) are
 * sent together as one item per stream.
 */
@Injectable()
export class AccountHub implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AccountHub.name);
  private readonly subscribers = new Set<Subscriber>();
  private readonly changedOrders = new Set<number>();
  private readonly changedBalances = new Map<number, Set<string>>();
  private flushQueued = false;
  private unsubscribe?: () => void;

  constructor(
    @Inject(SandboxAccounts) private readonly accounts: SandboxAccounts,
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.accounts.events.subscribe((event) => this.onEvent(event));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.subscribers.clear();
  }

  /** Open streams of every channel and connection. */
  streamCount(): number {
    return this.subscribers.size;
  }

  /** The methods of one authenticated connection. */
  methodsFor(user: SandboxUser): HubMethods {
    const accountId = user.accounts[0];
    const open =
      (channel: Channel, first: () => string[]) => (args: readonly unknown[], sink: StreamSink) => {
        stringArguments(args, 0);
        for (const item of first()) sink.next(item);
        const subscriber: Subscriber = { accountId, channel, sink };
        this.subscribers.add(subscriber);
        return () => {
          this.subscribers.delete(subscriber);
        };
      };
    return new Map([
      ['openorders', open('openOrders', () => [this.openOrdersItem(accountId)])],
      ['balance', open('balance', () => [this.balanceItem(accountId)])],
      [
        'balanceupdates',
        open('balanceUpdates', () =>
          this.accounts.balances(accountId).map(({ asset }) => this.balanceUpdateItem(accountId, asset)),
        ),
      ],
    ]);
  }

  private onEvent(event: AccountEvent): void {
    if (event.kind === 'order') this.changedOrders.add(event.accountId);
    else if (event.kind === 'balance') {
      let assets = this.changedBalances.get(event.accountId);
      if (!assets) {
        assets = new Set();
        this.changedBalances.set(event.accountId, assets);
      }
      assets.add(event.balance.asset);
    } else return;
    if (this.flushQueued) return;
    this.flushQueued = true;
    // The accounts announce an operation's changes in one synchronous burst: one item covers them all.
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.flushQueued = false;
    const orders = new Set(this.changedOrders);
    const balances = new Map(this.changedBalances);
    this.changedOrders.clear();
    this.changedBalances.clear();
    const items = new Map<string, string>();
    const itemOf = (key: string, build: () => string) => {
      let item = items.get(key);
      if (item === undefined) {
        item = build();
        items.set(key, item);
      }
      return item;
    };
    for (const { accountId, channel, sink } of [...this.subscribers]) {
      try {
        if (channel === 'openOrders' && orders.has(accountId))
          sink.next(itemOf(`o${accountId}`, () => this.openOrdersItem(accountId)));
        const assets = balances.get(accountId);
        if (!assets) continue;
        if (channel === 'balance') sink.next(itemOf(`b${accountId}`, () => this.balanceItem(accountId)));
        if (channel === 'balanceUpdates')
          for (const asset of assets)
            sink.next(itemOf(`u${accountId}:${asset}`, () => this.balanceUpdateItem(accountId, asset)));
      } catch (error) {
        this.logger.error(`account hub item not sent: ${(error as Error).message}`);
      }
    }
  }

  private openOrdersItem(accountId: number): string {
    return toJson(
      this.accounts
        .openOrders(accountId)
        .map((order) => orderView(order, this.exchange.market(order.instrument)!.spec)),
    );
  }

  private balanceItem(accountId: number): string {
    return toJson(
      Object.fromEntries(
        this.accounts
          .balances(accountId)
          .map(({ asset, available }) => [asset, jsonNumber(available, BALANCE_SCALE)]),
      ),
    );
  }

  private balanceUpdateItem(accountId: number, asset: string): string {
    const { available, locked } = this.accounts.balance(accountId, asset);
    return toJson({
      assetId: asset,
      available: jsonNumber(available, BALANCE_SCALE),
      orderLocked: jsonNumber(locked, BALANCE_SCALE),
      transferLocked: 0,
    });
  }
}
