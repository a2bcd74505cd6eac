import { readFileSync } from 'node:fs';
import { SYNTHETIC_ACCOUNT_ID } from '../simulation/synthetic-trader';
import { SandboxUser } from './sandbox-user';

export class UsersFileError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid sandbox users:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'UsersFileError';
  }
}

const DEFAULT_CREATED_AT = '2024-03-14T09:26:53.589Z';
const DEFAULT_PRIVATE_KEY = 'sandbox-secret';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Public key given to a user without one: a UUID that ends in the user id. */
export function defaultPublicKey(userId: number): string {
  return `00000000-0000-4000-8000-${String(userId).padStart(12, '0')}`;
}

/**
 * The user of a sandbox without a users file. The demo user is the venue operator so that
 * GetTradesHistory can page a market's whole public tape (every account's executions) with it.
 */
export function demoUser(): SandboxUser {
  return {
    userId: 1,
    email: 'demo@example.com',
    password: 'demo',
    accounts: [1],
    operator: true,
    publicKey: defaultPublicKey(1),
    privateKey: DEFAULT_PRIVATE_KEY,
    nickname: 0,
    countryCode: 0,
    createdAt: DEFAULT_CREATED_AT,
  };
}

/** The users from `file` (see {@link parseUsers}), or the demo user when no file is set. */
export function loadUsers(file?: string): SandboxUser[] {
  if (!file) return [demoUser()];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new UsersFileError([`cannot be read: ${code ?? message}`]);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    throw new UsersFileError([`not valid JSON: ${(error as Error).message}`]);
  }
  return parseUsers(input);
}

/** The problems of the users file at `file`, none when it can be used; for the check at boot. */
export function usersFileProblems(file: string): readonly string[] {
  try {
    loadUsers(file);
    return [];
  } catch (error) {
    if (error instanceof UsersFileError) return error.problems;
    throw error;
  }
}

/**
 * Validates a users file: a non-empty JSON array of objects with
 * - `userId` (required, positive integer, unique),
 * - `email` (required, unique ignoring case), `password` (required, non-empty),
 * - `accounts` (positive integer account ids, unique across users; default `[userId]`; the first is
 *   the default account; the synthetic participants' account cannot be used),
 * - `operator` (boolean, default false),
 * - `publicKey` (UUID, unique; default `00000000-0000-4000-8000-<userId in 12 digits>`),
 * - `privateKey` (non-empty; default `sandbox-secret`),
 * - `balances` (object of asset to plain non-negative decimal, what each account holds at start;
 *   default: the sandbox's starting balances of every asset),
 * - `nickname`, `countryCode` (integers, default 0), `createdAt` (ISO 8601 date-time).
 * Every problem is reported in one error.
 */
export function parseUsers(input: unknown): SandboxUser[] {
  if (!Array.isArray(input) || input.length === 0)
    throw new UsersFileError(['the file must hold a non-empty JSON array of users']);
  const problems: string[] = [];
  const users = input.map((raw: unknown, index): SandboxUser => {
    const record = isObject(raw) ? raw : {};
    const at = `user ${index}${typeof record.email === 'string' ? ` (${record.email})` : ''}`;
    const problem = (text: string) => problems.push(`${at}: ${text}`);
    if (!isObject(raw)) problem('must be an object');

    const userId = positiveInteger(record.userId) ? record.userId : 0;
    if (!userId) problem('userId must be a positive integer');
    const email = typeof record.email === 'string' ? record.email.trim() : '';
    if (!EMAIL.test(email)) problem('email must be an e-mail address');
    const password = typeof record.password === 'string' ? record.password : '';
    if (password === '') problem('password must be a non-empty string');

    let accounts: number[] = [userId];
    if (record.accounts !== undefined) {
      if (
        Array.isArray(record.accounts) &&
        record.accounts.length > 0 &&
        record.accounts.every(positiveInteger)
      ) {
        accounts = record.accounts;
      } else problem('accounts must be a non-empty array of positive integers');
    }
    if (accounts.includes(SYNTHETIC_ACCOUNT_ID))
      problem(`account ${SYNTHETIC_ACCOUNT_ID} belongs to the synthetic participants`);

    const operator = record.operator ?? false;
    if (typeof operator !== 'boolean') problem('operator must be true or false');
    const publicKey = record.publicKey ?? defaultPublicKey(userId);
    if (typeof publicKey !== 'string' || !UUID.test(publicKey)) problem('publicKey must be a UUID');
    const privateKey = record.privateKey ?? DEFAULT_PRIVATE_KEY;
    if (typeof privateKey !== 'string' || privateKey === '') problem('privateKey must be a non-empty string');
    const integer = (field: 'nickname' | 'countryCode'): number => {
      const value = record[field] ?? 0;
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
      problem(`${field} must be a non-negative integer`);
      return 0;
    };
    const balances = record.balances === undefined ? undefined : startingBalances(record.balances, problem);
    const createdAt = record.createdAt ?? DEFAULT_CREATED_AT;
    if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt)))
      problem('createdAt must be an ISO 8601 date-time');

    return {
      userId,
      email,
      password,
      accounts,
      operator: operator === true,
      publicKey: String(publicKey).toLowerCase(),
      privateKey: String(privateKey),
      ...(balances ? { balances } : {}),
      nickname: integer('nickname'),
      countryCode: integer('countryCode'),
      createdAt: typeof createdAt === 'string' ? createdAt : DEFAULT_CREATED_AT,
    };
  });
  duplicates(users.map((user) => user.userId).filter(Boolean), 'userId', problems);
  duplicates(users.map((user) => user.email.toLowerCase()).filter(Boolean), 'email', problems);
  duplicates(
    users.map((user) => user.publicKey),
    'publicKey',
    problems,
  );
  duplicates(users.flatMap((user) => user.accounts).filter(Boolean), 'account', problems);
  if (problems.length > 0) throw new UsersFileError(problems);
  return users;
}

const PLAIN_DECIMAL = /^\d+(?:\.\d+)?$/;

function startingBalances(
  input: unknown,
  problem: (text: string) => void,
): Record<string, string> | undefined {
  if (!isObject(input)) {
    problem('balances must be an object of asset to amount');
    return undefined;
  }
  const balances: Record<string, string> = {};
  for (const [asset, amount] of Object.entries(input)) {
    const text = typeof amount === 'number' ? String(amount) : amount;
    if (typeof text !== 'string' || !PLAIN_DECIMAL.test(text))
      problem(`balances.${asset} must be a plain non-negative decimal`);
    else balances[asset.toLowerCase()] = text;
  }
  return balances;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function duplicates(values: readonly unknown[], what: string, problems: string[]): void {
  const seen = new Set<unknown>();
  const reported = new Set<unknown>();
  for (const value of values) {
    if (seen.has(value) && !reported.has(value)) {
      problems.push(`duplicate ${what} ${String(value)}`);
      reported.add(value);
    }
    seen.add(value);
  }
}
