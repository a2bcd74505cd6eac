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
import { ascending, pageOf, SortKey } from '../accounts/record-page';
import { SandboxAccounts } from '../accounts/sandbox-accounts';
import { AccountStopOrder, StopOrderStatus } from '../accounts/stop-order';
import { Side } from '../engine/side';
import { pow10 } from '../engine/units';
import { toJson } from '../http/json-number';
import { JSON_CONTENT_TYPE } from '../rest/json-content-type';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { SandboxUser } from '../users/sandbox-user';
import { ExactJson } from '../wire/exact-json';
import { decimalField, objectField, stringField } from './exact-fields';
import { PrivateAuthGuard } from './private-auth.guard';
import { ExactBody, PrivateCaller } from './private-caller';
import { badRequest, orRejection, privateError } from './private-error';
import { oneOf, pageRequest, Query as QueryParams, text } from './private-query';
import { stopOrderView } from './stop-order-view';

const STATUSES: readonly StopOrderStatus[] = ['WaitingForActivation', 'Activated', 'Rejected'];
const SORT_FIELDS = ['OrderId', 'RequestedAmount', 'RequestedPrice', 'MarketId', 'Side'] as const;
type SortField = (typeof SORT_FIELDS)[number];

/** Stop orders (spec 4.2.4, 4.2.5), on the caller's default account. */
@Controller('frontoffice/api/stoporders')
@UseGuards(PrivateAuthGuard)
export class StopOrdersController {
  constructor(
    @Inject(SandboxAccounts) private readonly accounts: SandboxAccounts,
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
  ) {}

  /** `{ ts, nonce, order: { marketId, orderType, side, requestedPrice, activationPrice, requestedAmount, timeInForce } }`. */
  @Post()
  @HttpCode(HttpStatus.OK)
  @Header('content-type', JSON_CONTENT_TYPE)
  create(@PrivateCaller() caller: SandboxUser, @ExactBody() body: ExactJson | undefined): string {
    const order = objectField(body, 'order');
    const instrument = stringField(order, 'marketId', true)!.toLowerCase();
    const orderType = stringField(order, 'orderType', true)!.toLowerCase();
    if (orderType !== 'market' && orderType !== 'limit')
      throw badRequest(`orderType: must be market or limit, got ${orderType}`);
    const sideText = stringField(order, 'side', true)!.toLowerCase();
    if (sideText !== 'buy' && sideText !== 'sell')
      throw badRequest(`side: must be buy or sell, got ${sideText}`);
    const timeInForce = stringField(order, 'timeInForce', true)!.toLowerCase();
    if (timeInForce !== 'gtc' && timeInForce !== 'ioc' && timeInForce !== 'fok')
      throw badRequest(`timeInForce: must be gtc, ioc or fok, got ${timeInForce}`);
    const stop = orRejection(() =>
      this.accounts.createStopOrder(caller.accounts[0], {
        instrument,
        orderType,
        side: sideText === 'buy' ? Side.Buy : Side.Sell,
        requestedAmount: decimalField(order, 'requestedAmount', true)!,
        requestedPrice: decimalField(order, 'requestedPrice', true)!,
        activationPrice: decimalField(order, 'activationPrice', true)!,
        timeInForce,
      }),
    );
    return toJson({ order: this.view(stop) });
  }

  /** The caller's stop orders as an array, filtered by `market` and `status`, sorted by `sort`, paged. */
  @Get()
  @Header('content-type', JSON_CONTENT_TYPE)
  list(@PrivateCaller() caller: SandboxUser, @Query() query: QueryParams): string {
    const market = text(query, 'market')?.toLowerCase();
    const status = oneOf(query, 'status', STATUSES);
    const page = pageOf(
      this.accounts.stopOrders(caller.accounts[0]),
      (stop) =>
        (market === undefined || stop.instrument === market) &&
        (status === undefined || stop.status === status),
      [...this.sortKeys(text(query, 'sort')), { compare: ascending((stop) => stop.id), descending: true }],
      pageRequest(query),
    );
    return toJson(page.items.map((stop) => this.view(stop)));
  }

  @Get(':id')
  @Header('content-type', JSON_CONTENT_TYPE)
  one(@PrivateCaller() caller: SandboxUser, @Param('id') id: string): string {
    const stop = /^\d+$/.test(id) ? this.accounts.stopOrder(caller.accounts[0], Number(id)) : undefined;
    if (!stop) throw privateError(HttpStatus.NOT_FOUND, 'stop_order_not_found', `Stop order ${id} not found`);
    return toJson({ order: this.view(stop) });
  }

  /** Deletes a stop order still `WaitingForActivation`: 200 with it; 404 unknown; 400 in another status. */
  @Delete(':id')
  @Header('content-type', JSON_CONTENT_TYPE)
  remove(@PrivateCaller() caller: SandboxUser, @Param('id') id: string): string {
    if (!/^\d+$/.test(id))
      throw privateError(HttpStatus.NOT_FOUND, 'stop_order_not_found', `Stop order ${id} not found`);
    const stop = orRejection(() => this.accounts.deleteStopOrder(caller.accounts[0], Number(id)));
    return toJson({ order: this.view(stop) });
  }

  private view(stop: AccountStopOrder) {
    return stopOrderView(stop, this.exchange.market(stop.instrument)!.spec);
  }

  /** `sort`: comma-separated fields, `-` descending, `+` (or a space, a decoded `+`) or nothing ascending. */
  private sortKeys(sort: string | undefined): SortKey<AccountStopOrder>[] {
    if (sort === undefined) return [];
    return sort.split(',').map((part) => {
      const trimmed = part.trim();
      const descending = trimmed.startsWith('-');
      const name = trimmed.replace(/^[-+]/, '');
      const field = SORT_FIELDS.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
      if (!field) throw badRequest(`sort: ${name} is not one of ${SORT_FIELDS.join(', ')}`);
      return { compare: this.comparison(field), descending };
    });
  }

  private comparison(field: SortField): SortKey<AccountStopOrder>['compare'] {
    const scaled = (stop: AccountStopOrder, units: bigint, price: boolean) => {
      const { spec } = this.exchange.market(stop.instrument)!;
      return units * pow10(18 - (price ? spec.priceScale : spec.amountScale));
    };
    switch (field) {
      case 'OrderId':
        return ascending((stop) => stop.id);
      case 'RequestedAmount':
        return ascending((stop) => scaled(stop, stop.requestedAmount, false));
      case 'RequestedPrice':
        return ascending((stop) => scaled(stop, stop.requestedPrice, true));
      case 'MarketId':
        return ascending((stop) => stop.instrument);
      case 'Side':
        return ascending((stop) => stop.side);
    }
  }
}
