import { createHmac } from 'node:crypto';
import { JsonNumber, toJson } from '../wire/json-number';
import { parseExactJson } from '../wire/exact-json';

/** The sandbox demo user's key pair. */
export const DEMO_PUBLIC_KEY = '00000000-0000-4000-8000-000000000001';
export const DEMO_PRIVATE_KEY = 'sandbox-secret';

/** Numbers of replies arrive as their exact text. */
export interface OrderReply {
  readonly orderId: string;
  readonly total: string;
  readonly orderType: string;
  readonly commission: string;
  readonly createdAt: string;
  readonly unitsFilled: string;
  readonly isPending: boolean;
  readonly status: 'Working' | 'Rejected' | 'Cancelled' | 'Completed';
  readonly type: 'buy' | 'sell';
  readonly amount: string;
  readonly remaining: string;
  readonly fillFactor: string;
  readonly executionPrice: string;
  readonly requestedPrice: string;
  readonly price: string;
  readonly isLimit: boolean;
  readonly instrument: string;
  readonly side: string;
  readonly timeInForce: string;
  readonly cancellationDate: null;
  readonly rejectDetails: string | null;
  readonly source: string;
  readonly clientOrderId: string | null;
}

export interface TradeReply {
  readonly tradeSeq: string;
  readonly tradeTime: string;
  readonly amount: string;
  readonly executionPrice: string;
  readonly instrument: string;
  readonly side: string;
  readonly commission: string;
  readonly orderId: string;
}

export interface BalanceReply {
  readonly asset: string;
  readonly balance: string;
  readonly locked: string;
}

export interface StopOrderReply {
  readonly orderId: string;
  readonly accountId: string;
  readonly orderType: 'Market' | 'Limit';
  readonly timeInForce: string;
  readonly side: 'buy' | 'sell';
  readonly requestedAmount: string;
  readonly requestedPrice: string;
  readonly activationPrice: string;
  readonly marketId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly status: 'WaitingForActivation' | 'Activated' | 'Rejected';
  readonly activatedOrderId?: string;
  readonly activationError?: string;
}

export interface Paged<T> {
  readonly filters: Record<string, unknown>;
  readonly paging: { readonly page: string; readonly per_page: string; readonly total: string };
  readonly data: T[];
}

export interface ErrorReply {
  readonly errors: { readonly code: string; readonly message: string }[];
}

export interface PlaceOrder {
  readonly instrument: string;
  readonly type: 'buy' | 'sell';
  /** Decimal text, sent as a bare JSON number. */
  readonly amount: string;
  readonly price?: string;
  readonly isLimit: boolean;
  readonly isFok?: boolean;
  readonly clientOrderId?: string;
}

export interface CreateStopOrder {
  readonly marketId: string;
  readonly orderType: 'market' | 'limit';
  readonly side: 'buy' | 'sell';
  readonly requestedPrice: string;
  readonly activationPrice: string;
  readonly requestedAmount: string;
  readonly timeInForce: 'gtc' | 'ioc' | 'fok';
}

export interface Reply<T> {
  readonly status: number;
  readonly body: T;
}

export type QueryValues = Readonly<Record<string, string | number | boolean | undefined>>;

/** What a request may override to be wrong on purpose. */
export interface Tampering {
  readonly key?: string;
  readonly sign?: string;
  readonly ts?: string;
  readonly nonce?: string;
  /** Sent instead of the JSON body built from the fields (still signed unless `sign` is given). */
  readonly bodyText?: string;
}

const RATE_LIMIT_RETRIES = 5;

/**
 * A small client of the exchange's private REST: it signs every request (Key, Sign = upper-case hex
 * HMAC-SHA512 of the exact body or query string), adds `ts` and a fresh `nonce`, writes decimals as
 * bare JSON numbers and reads replies with exact numbers. A 429 (refused before the endpoint, so
 * nothing happened) is retried after a second, newly signed.
 */
export class PrivateRestClient {
  private lastNonce = Date.now() * 1000;

  constructor(
    readonly baseUrl: string,
    readonly publicKey = DEMO_PUBLIC_KEY,
    private readonly privateKey = DEMO_PRIVATE_KEY,
  ) {}

  placeOrder(order: PlaceOrder): Promise<Reply<{ order: OrderReply } | ErrorReply>> {
    const { amount, price, ...rest } = order;
    return this.post('/frontoffice/api/order', {
      order: {
        ...rest,
        amount: new JsonNumber(amount),
        ...(price !== undefined ? { price: new JsonNumber(price) } : {}),
      },
    });
  }

  /** Places an order that must be accepted. */
  async placed(order: PlaceOrder): Promise<OrderReply> {
    return expectOk(await this.placeOrder(order)).order;
  }

  cancelOrder(reference: string): Promise<Reply<{ order: OrderReply } | ErrorReply>> {
    return this.call('DELETE', `/frontoffice/api/orders/${encodeURIComponent(reference)}`, {});
  }

  order(reference: string): Promise<Reply<{ order: OrderReply } | ErrorReply>> {
    return this.call('GET', '/frontoffice/api/orders', { orderId: reference });
  }

  myOrders(): Promise<Reply<OrderReply[]>> {
    return this.call('GET', '/frontoffice/api/orders/my', {});
  }

  orderHistory(query: QueryValues = {}): Promise<Reply<Paged<OrderReply>>> {
    return this.call('GET', '/frontoffice/api/order_history', query);
  }

  tradeHistory(query: QueryValues = {}): Promise<Reply<Paged<TradeReply>>> {
    return this.call('GET', '/frontoffice/api/trade_history', query);
  }

  balances(): Promise<Reply<BalanceReply[]>> {
    return this.call('GET', '/frontoffice/api/balances', {});
  }

  createStopOrder(order: CreateStopOrder): Promise<Reply<{ order: StopOrderReply } | ErrorReply>> {
    return this.post('/frontoffice/api/stoporders', {
      order: {
        ...order,
        requestedPrice: new JsonNumber(order.requestedPrice),
        activationPrice: new JsonNumber(order.activationPrice),
        requestedAmount: new JsonNumber(order.requestedAmount),
      },
    });
  }

  stopOrders(query: QueryValues = {}): Promise<Reply<StopOrderReply[]>> {
    return this.call('GET', '/frontoffice/api/stoporders', query);
  }

  stopOrder(id: string): Promise<Reply<{ order: StopOrderReply } | ErrorReply>> {
    return this.call('GET', `/frontoffice/api/stoporders/${encodeURIComponent(id)}`, {});
  }

  deleteStopOrder(id: string): Promise<Reply<{ order: StopOrderReply } | ErrorReply>> {
    return this.call('DELETE', `/frontoffice/api/stoporders/${encodeURIComponent(id)}`, {});
  }

  /** A signed POST of `{ ts, nonce, ...fields }`. */
  post<T>(path: string, fields: Record<string, unknown>, tampering: Tampering = {}): Promise<Reply<T>> {
    return this.send<T>(
      'POST',
      () => {
        const body =
          tampering.bodyText ??
          toJson({
            ts: tampering.ts ?? new Date().toISOString(),
            nonce: new JsonNumber(tampering.nonce ?? this.nextNonce()),
            ...fields,
          });
        return { url: path, payload: body, body };
      },
      tampering,
    );
  }

  /** A signed GET or DELETE with `ts`, the query values, then `nonce`, in that order. */
  call<T>(
    method: 'GET' | 'DELETE',
    path: string,
    query: QueryValues,
    tampering: Tampering = {},
  ): Promise<Reply<T>> {
    return this.send<T>(
      method,
      () => {
        const params = new URLSearchParams();
        params.set('ts', tampering.ts ?? new Date().toISOString());
        for (const [name, value] of Object.entries(query))
          if (value !== undefined) params.set(name, String(value));
        params.set('nonce', tampering.nonce ?? this.nextNonce());
        const search = `?${params.toString()}`;
        return { url: `${path}${search}`, payload: search };
      },
      tampering,
    );
  }

  private async send<T>(
    method: string,
    build: () => { url: string; payload: string; body?: string },
    tampering: Tampering,
  ): Promise<Reply<T>> {
    for (let attempt = 0; ; attempt++) {
      const { url, payload, body } = build();
      const response = await fetch(`${this.baseUrl}${url}`, {
        method,
        headers: {
          Key: tampering.key ?? this.publicKey,
          Sign: tampering.sign ?? sign(this.privateKey, payload),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body,
      });
      const text = await response.text();
      if (response.status === 429 && attempt < RATE_LIMIT_RETRIES) {
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        continue;
      }
      return { status: response.status, body: (text === '' ? undefined : parseExactJson(text)) as T };
    }
  }

  private nextNonce(): string {
    this.lastNonce = Math.max(this.lastNonce + 1, Date.now() * 1000);
    return String(this.lastNonce);
  }
}

/** Sign of a payload, computed apart from the private guard's check so that one cannot hide a fault of the other. */
export function sign(privateKey: string, payload: string): string {
  return createHmac('sha512', privateKey).update(payload).digest('hex').toUpperCase();
}

/** The body of a 200 reply; anything else fails with the error body in the message. */
export function expectOk<T>(reply: Reply<T | ErrorReply>): T {
  if (reply.status !== 200)
    throw new Error(`expected 200, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body as T;
}
