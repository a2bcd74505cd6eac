/** How long a nonce stays used for a key: the exchange asks nonces to be unique within 22 seconds. */
export const NONCE_WINDOW_MS = 22_000;

/** The nonces each key used in the last {@link NONCE_WINDOW_MS}, so that a replayed request is refused. */
export class NonceWindow {
  private readonly used = new Map<string, Map<string, number>>();

  /** Records the nonce; false when the key already used it within the window. */
  use(key: string, nonce: string, now: number): boolean {
    let nonces = this.used.get(key);
    if (!nonces) {
      nonces = new Map();
      this.used.set(key, nonces);
    }
    for (const [old, expiry] of nonces) {
      // Insertion order is expiry order, so the first live one ends the sweep.
      if (expiry > now) break;
      nonces.delete(old);
    }
    if (nonces.has(nonce)) return false;
    nonces.set(nonce, now + NONCE_WINDOW_MS);
    return true;
  }
}
