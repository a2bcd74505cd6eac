import { Side } from '../engine/side';
import { GatewayCallError } from './gateway-result';
import { decimalField, parseOrderRequest } from './order-request';

function refusal(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    if (error instanceof GatewayCallError) return `${error.code} ${error.detail}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('SendOrder fields', () => {
  it('reads quantities and prices sent as JSON numbers or text, exponents included, as plain decimals', () => {
    expect(decimalField({ Quantity: 1e-7 }, 'Quantity')).toBe('0.0000001');
    expect(decimalField({ Quantity: 0.1 }, 'Quantity')).toBe('0.1');
    expect(decimalField({ Quantity: '2.50' }, 'Quantity')).toBe('2.5');
    expect(decimalField({}, 'Quantity')).toBeUndefined();
    expect(refusal(() => decimalField({ Quantity: -1 }, 'Quantity'))).toMatch(/^100 /);
    expect(refusal(() => decimalField({ Quantity: true }, 'Quantity'))).toMatch(/^100 /);
  });

  it('maps each order type to an order or a stop order, with the time in force defaults', () => {
    const base = { Side: 0, Quantity: 0.5 };
    expect(parseOrderRequest({ ...base, OrderType: 1 }, 'btc_usdt')).toEqual({
      kind: 'order',
      orderType: 1,
      request: { instrument: 'btc_usdt', side: Side.Buy, type: 'market', amount: '0.5', timeInForce: 'ioc' },
    });
    expect(
      parseOrderRequest(
        {
          ...base,
          Side: 1,
          OrderType: 2,
          LimitPrice: 100,
          UseDisplayQuantity: true,
          DisplayQuantity: 0.1,
          OrderIdOCO: 9,
        },
        'btc_usdt',
        'uuid',
      ).request,
    ).toEqual({
      instrument: 'btc_usdt',
      side: Side.Sell,
      type: 'limit',
      amount: '0.5',
      price: '100',
      timeInForce: 'gtc',
      clientOrderId: 'uuid',
      displayAmount: '0.1',
      ocoOrderId: 9,
    });
    expect(
      parseOrderRequest({ ...base, OrderType: 3, StopPrice: 70000, TimeInForce: 4 }, 'btc_usdt'),
    ).toMatchObject({
      kind: 'stop',
      request: { orderType: 'market', activationPrice: '70000', timeInForce: 'fok' },
    });
    expect(
      parseOrderRequest({ ...base, OrderType: 4, StopPrice: 70000, LimitPrice: 70100 }, 'btc_usdt'),
    ).toMatchObject({
      kind: 'stop',
      request: { orderType: 'limit', activationPrice: '70000', requestedPrice: '70100', timeInForce: 'gtc' },
    });
    expect(
      parseOrderRequest(
        { ...base, OrderType: 6, TrailingAmount: 25, LimitOffset: 5, PegPriceType: 1 },
        'btc_usdt',
      ),
    ).toMatchObject({
      kind: 'stop',
      request: { orderType: 'limit', trailing: { amount: '25', limitOffset: '5' }, timeInForce: 'gtc' },
    });
  });

  it('refuses what it cannot place, as Invalid Request', () => {
    const base = { Side: 0, Quantity: 0.5, OrderType: 2, LimitPrice: 100 };
    for (const payload of [
      { ...base, Side: 2 },
      { ...base, Side: undefined },
      { ...base, OrderType: 0 },
      { ...base, Quantity: 0 },
      { ...base, LimitPrice: 0 },
      { ...base, TimeInForce: 2 },
      { ...base, OrderType: 1, UseDisplayQuantity: true, DisplayQuantity: 0.1 },
      { ...base, UseDisplayQuantity: true },
      { ...base, OrderType: 3, StopPrice: 1, OrderIdOCO: 4 },
      { ...base, OrderType: 3 },
      { ...base, OrderType: 5 },
      { ...base, OrderType: 3, StopPrice: 1, PegPriceType: 4 },
      { ...base, OrderType: 4, StopPrice: 1, TimeInForce: 3 },
    ])
      expect([payload, refusal(() => parseOrderRequest(payload, 'btc_usdt'))]).toEqual([
        payload,
        expect.stringMatching(/^100 /),
      ]);
  });
});
