import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPublicKey, demoUser, loadUsers, parseUsers, UsersFileError } from './users-file';

function problemsOf(input: unknown): readonly string[] {
  try {
    parseUsers(input);
  } catch (error) {
    if (error instanceof UsersFileError) return error.problems;
    throw error;
  }
  throw new Error('expected the users to be rejected');
}

describe('users file', () => {
  it('defaults to the demo user, who is the operator', () => {
    expect(loadUsers()).toEqual([demoUser()]);
    expect(demoUser()).toMatchObject({
      userId: 1,
      email: 'demo@example.com',
      password: 'demo',
      accounts: [1],
      operator: true,
      publicKey: '00000000-0000-4000-8000-000000000001',
      privateKey: 'sandbox-secret',
    });
  });

  it('fills the optional fields of a user', () => {
    const [user] = parseUsers([{ userId: 42, email: 'Trader@Example.com', password: 'pw' }]);
    expect(user).toEqual({
      userId: 42,
      email: 'Trader@Example.com',
      password: 'pw',
      accounts: [42],
      operator: false,
      publicKey: defaultPublicKey(42),
      privateKey: 'sandbox-secret',
      nickname: 0,
      countryCode: 0,
      createdAt: expect.any(String),
    });
    expect(defaultPublicKey(42)).toBe('00000000-0000-4000-8000-000000000042');
  });

  it('keeps given accounts, keys and flags', () => {
    const [user] = parseUsers([
      {
        userId: 7,
        email: 'ops@example.com',
        password: 'secret',
        accounts: [70, 71],
        operator: true,
        publicKey: 'A1B2C3D4-0000-4000-8000-000000000007',
        privateKey: 'k',
        nickname: 3,
        countryCode: 44,
        createdAt: '2025-01-02T03:04:05Z',
      },
    ]);
    expect(user).toMatchObject({
      accounts: [70, 71],
      operator: true,
      publicKey: 'a1b2c3d4-0000-4000-8000-000000000007',
      privateKey: 'k',
      nickname: 3,
      countryCode: 44,
      createdAt: '2025-01-02T03:04:05Z',
    });
  });

  it('keeps starting balances per asset, in lower case, and names bad ones', () => {
    const [user] = parseUsers([
      { userId: 3, email: 'c@example.com', password: 'x', balances: { BTC: '1.5', usdt: 250 } },
    ]);
    expect(user.balances).toEqual({ btc: '1.5', usdt: '250' });
    expect(
      problemsOf([{ userId: 4, email: 'd@example.com', password: 'x', balances: { btc: '-1' } }]),
    ).toEqual(['user 0 (d@example.com): balances.btc must be a plain non-negative decimal']);
    expect(problemsOf([{ userId: 4, email: 'd@example.com', password: 'x', balances: [] }])).toEqual([
      'user 0 (d@example.com): balances must be an object of asset to amount',
    ]);
  });

  it('rejects a file that is not a non-empty array', () => {
    expect(problemsOf({})).toEqual(['the file must hold a non-empty JSON array of users']);
    expect(problemsOf([])).toEqual(['the file must hold a non-empty JSON array of users']);
  });

  it('names every problem of every user', () => {
    const problems = problemsOf([
      { userId: 0, email: 'nobody', password: '' },
      {
        userId: 2,
        email: 'b@example.com',
        password: 'x',
        accounts: [],
        operator: 'yes',
        publicKey: 'not-a-uuid',
        privateKey: '',
        nickname: -1,
        createdAt: 'yesterday',
      },
      'text',
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        'user 0 (nobody): userId must be a positive integer',
        'user 0 (nobody): email must be an e-mail address',
        'user 0 (nobody): password must be a non-empty string',
        'user 1 (b@example.com): accounts must be a non-empty array of positive integers',
        'user 1 (b@example.com): operator must be true or false',
        'user 1 (b@example.com): publicKey must be a UUID',
        'user 1 (b@example.com): privateKey must be a non-empty string',
        'user 1 (b@example.com): nickname must be a non-negative integer',
        'user 1 (b@example.com): createdAt must be an ISO 8601 date-time',
        'user 2: must be an object',
      ]),
    );
  });

  it('rejects duplicates and the synthetic participants account', () => {
    const problems = problemsOf([
      { userId: 1, email: 'a@example.com', password: 'x', accounts: [5, 5] },
      { userId: 1, email: 'A@example.com', password: 'x', accounts: [6] },
      { userId: 3, email: 'c@example.com', password: 'x', accounts: [1000] },
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        'duplicate userId 1',
        'duplicate email a@example.com',
        'duplicate publicKey 00000000-0000-4000-8000-000000000001',
        'duplicate account 5',
        'user 2 (c@example.com): account 1000 belongs to the synthetic participants',
      ]),
    );
  });

  it('reads a file and reports one that cannot be parsed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'users-'));
    try {
      const good = join(dir, 'users.json');
      writeFileSync(good, JSON.stringify([{ userId: 9, email: 'n@example.com', password: 'p' }]));
      expect(loadUsers(good).map((user) => user.userId)).toEqual([9]);
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, '[{');
      expect(() => loadUsers(bad)).toThrow(/Invalid sandbox users:\n {2}- not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
