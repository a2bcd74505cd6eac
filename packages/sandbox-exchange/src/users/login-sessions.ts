import { randomBytes } from 'node:crypto';
import { Clock } from '../simulation/clock';
import { Signal } from '../simulation/signal';
import { SandboxUser } from './sandbox-user';

/** One login: `sessionToken` goes into the gateway URL, `token` into WebAuthenticateUser. */
export interface LoginSession {
  /** Sequence number of the login, the `id` of the login reply. */
  readonly id: number;
  readonly user: SandboxUser;
  readonly sessionToken: string;
  readonly token: string;
  /** Unix milliseconds. */
  readonly loggedAt: number;
  readonly expiresAt: number;
}

export const SESSION_LIFETIME_MS = 24 * 3_600_000;
const MAX_SESSIONS = 10_000;

/** 32 random bytes: unguessable, URL-safe. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The live logins. A session lasts {@link SESSION_LIFETIME_MS} unless every session is revoked at
 * once (the expire-sessions fault); the oldest are dropped beyond a bound so that clients that log in
 * in a loop cannot grow the store without limit.
 */
export class LoginSessions {
  /** Emitted after every session was revoked. */
  readonly revoked = new Signal<void>();
  private readonly bySessionToken = new Map<string, LoginSession>();
  private readonly byToken = new Map<string, LoginSession>();
  private lastId = 0;

  constructor(
    private readonly clock: Clock,
    private readonly lifetimeMs = SESSION_LIFETIME_MS,
  ) {}

  open(user: SandboxUser): LoginSession {
    const loggedAt = this.clock.now();
    const session: LoginSession = {
      id: ++this.lastId,
      user,
      sessionToken: newToken(),
      token: newToken(),
      loggedAt,
      expiresAt: loggedAt + this.lifetimeMs,
    };
    this.bySessionToken.set(session.sessionToken, session);
    this.byToken.set(session.token, session);
    if (this.bySessionToken.size > MAX_SESSIONS) this.dropOldest();
    return session;
  }

  /** The live session whose `session_token` this is. */
  withSessionToken(sessionToken: string): LoginSession | undefined {
    return this.live(this.bySessionToken.get(sessionToken));
  }

  /** The live session whose websocket `token` this is. */
  withToken(token: string): LoginSession | undefined {
    return this.live(this.byToken.get(token));
  }

  isLive(session: LoginSession): boolean {
    return this.bySessionToken.get(session.sessionToken) === session && this.clock.now() < session.expiresAt;
  }

  get size(): number {
    return this.bySessionToken.size;
  }

  revokeAll(): void {
    this.bySessionToken.clear();
    this.byToken.clear();
    this.revoked.emit();
  }

  private live(session: LoginSession | undefined): LoginSession | undefined {
    if (!session) return undefined;
    if (this.clock.now() < session.expiresAt) return session;
    this.remove(session);
    return undefined;
  }

  private remove(session: LoginSession): void {
    this.bySessionToken.delete(session.sessionToken);
    this.byToken.delete(session.token);
  }

  private dropOldest(): void {
    const oldest = this.bySessionToken.values().next().value;
    if (oldest) this.remove(oldest);
  }
}
