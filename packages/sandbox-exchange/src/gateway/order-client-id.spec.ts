import { clientOrderLong, clientOrderUuid } from './order-client-id';

describe('gateway ClientOrderId as a UUID', () => {
  it('round-trips every long from 1 to the largest, and has no UUID for 0 or beyond', () => {
    for (const value of [1n, 7001n, 2n ** 32n + 5n, 2n ** 53n - 1n, 2n ** 63n - 1n]) {
      const uuid = clientOrderUuid(value)!;
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-0000-000000000000$/);
      expect(clientOrderLong(uuid)).toBe(value);
    }
    expect(clientOrderUuid(0n)).toBeUndefined();
    expect(clientOrderUuid(2n ** 63n)).toBeUndefined();
  });

  it('reads a UUID of the private REST, or none, as 0', () => {
    expect(clientOrderLong('0b9e1f3a-5c4d-4e2f-9a8b-7c6d5e4f3a21')).toBe(0n);
    expect(clientOrderLong(undefined)).toBe(0n);
  });
});
