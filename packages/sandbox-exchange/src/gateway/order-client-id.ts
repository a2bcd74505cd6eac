/**
 * The gateway's `ClientOrderId` is a non-negative long (0: none) where the accounts keep a UUID: a
 * long is written into the UUID's first 16 hex digits, with a fixed tail that marks it as one.
 */
const TAIL = '-0000-000000000000';
const FROM_LONG = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-0000-000000000000$/;
const MAX_LONG = 2n ** 63n - 1n;

export function clientOrderUuid(clientOrderId: bigint): string | undefined {
  if (clientOrderId <= 0n || clientOrderId > MAX_LONG) return undefined;
  const hex = clientOrderId.toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}${TAIL}`;
}

/** The long of a UUID made by {@link clientOrderUuid}; 0 for none or for a UUID of the private REST. */
export function clientOrderLong(uuid: string | undefined): bigint {
  const match = uuid === undefined ? null : FROM_LONG.exec(uuid);
  return match ? BigInt(`0x${match[1]}${match[2]}${match[3]}`) : 0n;
}
