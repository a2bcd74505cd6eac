import { randomUUID } from 'node:crypto';

/** The reply to `POST {hub}/negotiate`, version 0 or 1 of the negotiate protocol. */
export interface NegotiateResponse {
  readonly connectionId: string;
  /** Version 1 only: what the websocket URL carries as `id`; version 0 uses the connection id. */
  readonly connectionToken?: string;
  readonly negotiateVersion: number;
  readonly availableTransports: readonly { transport: string; transferFormats: readonly string[] }[];
}

/** `claimed`: the token may open its connection; `unknown`: never issued, expired or finished; `in-use`: its connection is open. */
export type TokenClaim = 'claimed' | 'unknown' | 'in-use';

/** How long a negotiated connection waits for its websocket. */
export const TOKEN_LIFETIME_MS = 15_000;

/**
 * Connections negotiated over HTTP: each token opens one websocket, shortly after it was issued,
 * and is forgotten once that websocket has closed.
 */
export class HubNegotiation {
  /** Issued tokens in order of issue, which is also the order in which they expire. */
  private readonly issued = new Map<string, number>();
  private readonly inUse = new Set<string>();

  /** `now` gives Unix milliseconds. */
  constructor(private readonly now: () => number = Date.now) {}

  negotiate(requestedVersion: number): NegotiateResponse {
    this.forgetExpired();
    const connectionId = randomUUID();
    const availableTransports = [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }];
    if (requestedVersion < 1) {
      this.issued.set(connectionId, this.now() + TOKEN_LIFETIME_MS);
      return { connectionId, negotiateVersion: 0, availableTransports };
    }
    const connectionToken = randomUUID();
    this.issued.set(connectionToken, this.now() + TOKEN_LIFETIME_MS);
    return { connectionId, connectionToken, negotiateVersion: 1, availableTransports };
  }

  claim(token: string): TokenClaim {
    if (this.inUse.has(token)) return 'in-use';
    this.forgetExpired();
    if (!this.issued.delete(token)) return 'unknown';
    this.inUse.add(token);
    return 'claimed';
  }

  release(token: string): void {
    this.inUse.delete(token);
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [token, expiresAt] of this.issued) {
      if (expiresAt > now) return;
      this.issued.delete(token);
    }
  }
}
