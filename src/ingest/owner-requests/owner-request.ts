/** Work only an instrument's owner can do: it holds the live book and writes the instrument. */
export type OwnerRequestKind =
  /** check the live book against a REST snapshot */
  | 'verify'
  /** without a trade feed, fetch the candles of the last 24 hours again */
  | 'candles';

const KINDS: readonly OwnerRequestKind[] = ['verify', 'candles'];

export interface OwnerRequest {
  readonly kind: OwnerRequestKind;
  readonly instruments: readonly string[];
}

/**
 * Reaches the owners of instruments, whichever replica they are: a scheduled job that runs on one
 * replica asks, and each replica acts on the instruments it owns.
 */
export interface OwnerRequests {
  start(listener: (request: OwnerRequest) => void): void;
  send(request: OwnerRequest): Promise<void>;
  stop(): Promise<void>;
}

export const OWNER_REQUESTS = Symbol('OwnerRequests');

/** The request a message carries, or undefined when it is not one. */
export function parseOwnerRequest(text: string): OwnerRequest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, instruments } = value as Record<string, unknown>;
  if (!KINDS.includes(kind as OwnerRequestKind)) return undefined;
  if (!Array.isArray(instruments) || !instruments.every((item) => typeof item === 'string')) return undefined;
  return { kind: kind as OwnerRequestKind, instruments: instruments as string[] };
}
