import { timingSafeEqual } from 'node:crypto';
import { SandboxUser } from './sandbox-user';

/** The configured users, looked up by what each interface identifies them with. */
export class SandboxUsers {
  private readonly byEmail = new Map<string, SandboxUser>();
  private readonly byUserId = new Map<number, SandboxUser>();
  private readonly byPublicKey = new Map<string, SandboxUser>();
  private readonly byAccountId = new Map<number, SandboxUser>();

  constructor(private readonly users: readonly SandboxUser[]) {
    for (const user of users) {
      this.byEmail.set(user.email.toLowerCase(), user);
      this.byUserId.set(user.userId, user);
      this.byPublicKey.set(user.publicKey.toLowerCase(), user);
      for (const account of user.accounts) this.byAccountId.set(account, user);
    }
  }

  all(): readonly SandboxUser[] {
    return this.users;
  }

  /** The user with this e-mail (any letter case) and exactly this password. */
  verifyPassword(email: string, password: string): SandboxUser | undefined {
    const user = this.byEmail.get(email.trim().toLowerCase());
    if (!user) return undefined;
    const given = Buffer.from(password, 'utf8');
    const expected = Buffer.from(user.password, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected) ? user : undefined;
  }

  withUserId(userId: number): SandboxUser | undefined {
    return this.byUserId.get(userId);
  }

  /** The owner of a REST public key (case-insensitive UUID). */
  withPublicKey(publicKey: string): SandboxUser | undefined {
    return this.byPublicKey.get(publicKey.toLowerCase());
  }

  /** The owner of an account; undefined for accounts of no user (the synthetic participants'). */
  ownerOfAccount(accountId: number): SandboxUser | undefined {
    return this.byAccountId.get(accountId);
  }
}
