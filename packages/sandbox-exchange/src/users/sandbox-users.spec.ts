import { SandboxUsers } from './sandbox-users';
import { parseUsers } from './users-file';

describe('sandbox users', () => {
  const users = new SandboxUsers(
    parseUsers([
      { userId: 1, email: 'demo@example.com', password: 'demo', accounts: [1, 11] },
      { userId: 2, email: 'two@example.com', password: 'two' },
    ]),
  );

  it('verifies e-mail (any case) and exact password', () => {
    expect(users.verifyPassword('DEMO@example.com ', 'demo')?.userId).toBe(1);
    expect(users.verifyPassword('demo@example.com', 'Demo')).toBeUndefined();
    expect(users.verifyPassword('demo@example.com', 'demo2')).toBeUndefined();
    expect(users.verifyPassword('nobody@example.com', 'demo')).toBeUndefined();
  });

  it('finds users by id, public key and account', () => {
    expect(users.withUserId(2)?.email).toBe('two@example.com');
    expect(users.withPublicKey('00000000-0000-4000-8000-000000000002')?.userId).toBe(2);
    expect(users.ownerOfAccount(11)?.userId).toBe(1);
    expect(users.ownerOfAccount(1000)).toBeUndefined();
  });
});
