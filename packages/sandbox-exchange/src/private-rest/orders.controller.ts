import {
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  HttpStatus,
  Inject,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { AccountOrder, OrderStatus } from '../accounts/account-order';
import { AccountTrade } from '../accounts/account-trade';
import { BALANCE_SCALE } from '../accounts/balance-units';
import { ascending, pageOf, RecordPage, SortKey } from '../accounts/record-page';
import { SandboxAccounts } from '../accounts/sandbox-accounts';
import { Side } from '../engine/side';
import { pow10 } from '../engine/units';
import { jsonNumber, toJson } from '../http/json-number';
import { SandboxMarketSpec } from '../market/market-spec';
import { JSON_CONTENT_TYPE } from '../rest/json-content-type';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { SandboxUser } from '../users/sandbox-user';
import { ExactJson } from '../wire/exact-json';
import { booleanField, decimalField, objectField, stringField } from './exact-fields';
import { PrivateAuthGuard } from './private-auth.guard';
import { ExactBody, PrivateCaller } from './private-caller';
import { badRequest, orRejection, privateError } from './private-error';
import {
  date,
  echoedFilters,
  flag,
  historySort,
  integer,
  oneOf,
  pageRequest,
  Query as QueryParams,
  side,
  text,
} from './private-query';
import { averagePrice, orderView } from './order-view';
import { tradeView } from './trade-view';

const SORT_FIELDS = [
  'TradeSeq',
  'TradeTime',
  'OrderId',
  'Amount',
  'Instrument',
  'Side',
  'ExecutionPrice',
  'Commission',
] as const;
type SortField = (typeof SORT_FIELDS)[number];

const ORDER_STATUSES: readonly OrderStatus[] = ['Working', 'Rejected', 'Cancelled', 'Completed'];

/** The caller's default account: the private REST acts on it. */
function accountOf(user: SandboxUser): number {
  return user.accounts[0];
}

/**
 * Private REST of orders, trades and balances (spec 4.2), signed per request (spec 5.1). Replies
 * carry exact decimals as bare JSON numbers.
 */
@Controller('frontoffice/api')
@UseGuards(PrivateAuthGuard)
export class OrdersController {
  constructor(
    @Inject(SandboxAccounts) private readonly accounts: SandboxAccounts,
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
  ) {}

  /** `{ ts, nonce, order: { instrument, type, amount, price, isLimit, isFok, clientOrderId } }` (spec 4.2.1). */
  @Post('order')
  @HttpCode(HttpStatus.OK)
  @Header('content-type', JSON_CONTENT_TYPE)
  place(@PrivateCaller() caller: SandboxUser, @ExactBody() body: ExactJson | undefined): string {
    const order = objectField(body, 'order');
    if (booleanField(order, 'isStop') === true)
      throw privateError(
        HttpStatus.INTERNAL_SERVER_ERROR,
        'unexpected',
        'Stop orders are not supported by this call',
      );
    const instrument = stringField(order, 'instrument', true)!.toLowerCase();
    const type = stringField(order, 'type', true)!.toLowerCase();
    if (type !== 'buy' && type !== 'sell') throw badRequest(`type: must be buy or sell, got ${type}`);
    const amount = decimalField(order, 'amount', true)!;
    const price = decimalField(order, 'price', false);
    // Without isLimit, a positive price makes a limit order and none (or 0) a market order.
    const isLimit = booleanField(order, 'isLimit') ?? (price !== undefined && /[1-9]/.test(price));
    const isFok = booleanField(order, 'isFok') ?? false;
    const clientOrderId = stringField(order, 'clientOrderId', false);
    const placed = orRejection(() =>
      this.accounts.placeOrder(accountOf(caller), {
        instrument,
        side: type === 'buy' ? Side.Buy : Side.Sell,
        type: isLimit ? 'limit' : 'market',
        amount,
        price: isLimit ? price : undefined,
        timeInForce: isFok ? 'fok' : isLimit ? 'gtc' : 'ioc',
        ...(clientOrderId !== undefined ? { clientOrderId } : {}),
      }),
    );
    return toJson({ order: this.view(placed) });
  }

  /** Cancels a working order by `orderId` or `clientOrderId`: 200 with the order, 404 when not found, 400 when it no longer works. */
  @Delete('orders/:id')
  @Header('content-type', JSON_CONTENT_TYPE)
  cancel(@PrivateCaller() caller: SandboxUser, @Param('id') id: string): string {
    const cancelled = orRejection(() => this.accounts.cancelOrder(accountOf(caller), id));
    return toJson({ order: this.view(cancelled) });
  }

  /** The older form of the cancel call: `DELETE /frontoffice/api/orders?orderId=...`. */
  @Delete('orders')
  @Header('content-type', JSON_CONTENT_TYPE)
  cancelByQuery(@PrivateCaller() caller: SandboxUser, @Query() query: QueryParams): string {
    return this.cancel(caller, this.orderReference(query));
  }

  /** One order by `orderId` or `clientOrderId` (the open one, else the last placed). */
  @Get('orders')
  @Header('content-type', JSON_CONTENT_TYPE)
  one(@PrivateCaller() caller: SandboxUser, @Query() query: QueryParams): string {
    const reference = this.orderReference(query);
    const order = this.accounts.order(accountOf(caller), reference.toLowerCase());
    if (!order) throw privateError(HttpStatus.NOT_FOUND, 'order_not_found', `Order ${reference} not found`);
    return toJson({ order: this.view(order) });
  }

  /** The caller's working orders, oldest first. */
  @Get('orders/my')
  @Header('content-type', JSON_CONTENT_TYPE)
  mine(@PrivateCaller() caller: SandboxUser): string {
    return toJson(this.accounts.openOrders(accountOf(caller)).map((order) => this.view(order)));
  }

  /** Spec 4.2.2; newest first unless `AscOrder`/`DescOrder` says otherwise. */
  @Get('order_history')
  @Header('content-type', JSON_CONTENT_TYPE)
  orderHistory(@PrivateCaller() caller: SandboxUser, @Query() query: QueryParams): string {
    const market = text(query, 'market')?.toLowerCase();
    const orderSide = side(query);
    const status = oneOf(query, 'status', ORDER_STATUSES);
    const from = date(query, 'startDate');
    const to = date(query, 'endDate');
    const hideCancelled = flag(query, 'isHideCanceled') ?? false;
    const sort = historySort(query, SORT_FIELDS);
    const page = pageOf(
      this.accounts.orders(accountOf(caller)),
      (order) =>
        (market === undefined || order.instrument === market) &&
        (orderSide === undefined || order.side === orderSide) &&
        (status === undefined || order.status === status) &&
        (!hideCancelled || order.status !== 'Cancelled') &&
        (from === undefined || order.createdAt >= from) &&
        (to === undefined || order.createdAt <= to),
      [
        ...(sort ? [{ compare: this.orderComparison(sort.field), descending: sort.descending }] : []),
        BY_ORDER_ID_DESC,
      ],
      pageRequest(query),
    );
    return toJson(paged(query, page, (order) => this.view(order)));
  }

  /** Spec 4.2.3; newest first unless `AscOrder`/`DescOrder` says otherwise. */
  @Get('trade_history')
  @Header('content-type', JSON_CONTENT_TYPE)
  tradeHistory(@PrivateCaller() caller: SandboxUser, @Query() query: QueryParams): string {
    const orderId = integer(query, 'orderId', 0, Number.MAX_SAFE_INTEGER);
    const market = text(query, 'market')?.toLowerCase();
    const tradeSide = side(query);
    const from = date(query, 'startDate');
    const to = date(query, 'endDate');
    const sort = historySort(query, SORT_FIELDS);
    const page = pageOf(
      this.accounts.trades(accountOf(caller)),
      (trade) =>
        (orderId === undefined || trade.orderId === orderId) &&
        (market === undefined || trade.instrument === market) &&
        (tradeSide === undefined || trade.side === tradeSide) &&
        (from === undefined || trade.time >= from) &&
        (to === undefined || trade.time <= to),
      [
        ...(sort ? [{ compare: this.tradeComparison(sort.field), descending: sort.descending }] : []),
        BY_TRADE_DESC,
      ],
      pageRequest(query),
    );
    return toJson(paged(query, page, (trade) => tradeView(trade, this.spec(trade.instrument))));
  }

  /** Every asset of the caller's account: `balance` is the total, `locked` what open orders hold. */
  @Get('balances')
  @Header('content-type', JSON_CONTENT_TYPE)
  balances(@PrivateCaller() caller: SandboxUser): string {
    return toJson(
      this.accounts.balances(accountOf(caller)).map(({ asset, available, locked }) => ({
        asset,
        balance: jsonNumber(available + locked, BALANCE_SCALE),
        locked: jsonNumber(locked, BALANCE_SCALE),
      })),
    );
  }

  private orderReference(query: QueryParams): string {
    const reference = text(query, 'orderId');
    if (reference === undefined) throw badRequest('orderId: required, an order id or a clientOrderId');
    return reference;
  }

  private view(order: AccountOrder) {
    return orderView(order, this.spec(order.instrument));
  }

  private spec(instrument: string): SandboxMarketSpec {
    return this.exchange.market(instrument)!.spec;
  }

  /** Execution prices of different markets compared at one scale. */
  private orderComparison(field: SortField): SortKey<AccountOrder>['compare'] {
    switch (field) {
      case 'TradeSeq':
      case 'OrderId':
        return ascending((order) => order.id);
      case 'TradeTime':
        return ascending((order) => order.createdAt);
      case 'Amount':
        return ascending((order) => order.amount * pow10(18 - this.spec(order.instrument).amountScale));
      case 'Instrument':
        return ascending((order) => order.instrument);
      case 'Side':
        return ascending((order) => order.side);
      case 'ExecutionPrice':
        return ascending((order) => {
          const spec = this.spec(order.instrument);
          return averagePrice(order, spec) * pow10(18 - spec.priceScale);
        });
      case 'Commission':
        return ascending((order) => order.commission);
    }
  }

  private tradeComparison(field: SortField): SortKey<AccountTrade>['compare'] {
    switch (field) {
      case 'TradeSeq':
        return ascending((trade) => trade.tradeId);
      case 'TradeTime':
        return ascending((trade) => trade.time);
      case 'OrderId':
        return ascending((trade) => trade.orderId);
      case 'Amount':
        return ascending((trade) => trade.amount * pow10(18 - this.spec(trade.instrument).amountScale));
      case 'Instrument':
        return ascending((trade) => trade.instrument);
      case 'Side':
        return ascending((trade) => trade.side);
      case 'ExecutionPrice':
        return ascending((trade) => trade.price * pow10(18 - this.spec(trade.instrument).priceScale));
      case 'Commission':
        return ascending((trade) => trade.commission);
    }
  }
}

const BY_ORDER_ID_DESC: SortKey<AccountOrder> = { compare: ascending((order) => order.id), descending: true };

/** Newest first; the two executions of a self-trade by order id. */
const BY_TRADE_DESC: SortKey<AccountTrade> = {
  compare: (a, b) =>
    ascending<AccountTrade>((trade) => trade.tradeId)(a, b) ||
    ascending<AccountTrade>((trade) => trade.orderId)(a, b),
  descending: true,
};

/** The paged reply of the history calls: `{ filters, paging: { page, per_page, total }, data }`. */
function paged<T, V>(query: QueryParams, page: RecordPage<T>, view: (record: T) => V) {
  return {
    filters: echoedFilters(query),
    paging: { page: page.page, per_page: page.perPage, total: page.total },
    data: page.items.map(view),
  };
}
