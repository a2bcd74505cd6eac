import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningSandbox } from '../src/start-sandbox';
import { startTestSandbox } from './support/start-test-sandbox';

function form(fields: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  };
}

describe('sandbox login', () => {
  let sandbox: RunningSandbox;
  let usersDir: string;

  beforeAll(async () => {
    usersDir = mkdtempSync(join(tmpdir(), 'sandbox-users-'));
    const usersFile = join(usersDir, 'users.json');
    writeFileSync(
      usersFile,
      JSON.stringify([
        { userId: 1, email: 'demo@example.com', password: 'demo', operator: true },
        { userId: 5, email: 'trader@example.com', password: 'p@ss w=rd&', accounts: [50], nickname: 9 },
      ]),
    );
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_USERS_FILE: usersFile });
  });

  afterAll(async () => {
    await sandbox?.close();
    rmSync(usersDir, { recursive: true, force: true });
  });

  it('logs in with a form-encoded e-mail and password', async () => {
    const before = Date.now();
    const response = await fetch(
      `${sandbox.authUrl}/api/v1/trade/auth`,
      form({ email: 'trader@example.com', password: 'p@ss w=rd&' }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: number; data: Record<string, unknown> };
    expect(body.data).toEqual({
      id: expect.any(Number),
      email: 'trader@example.com',
      country_code: 0,
      settings: [],
      status: 1,
      logged_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      nickname: 9,
      photo: '',
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user_id: 5,
      session_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(body.data.token).not.toBe(body.data.session_token);
    expect(Date.parse(String(body.data.logged_at))).toBeGreaterThanOrEqual(before - 1000);
  });

  it('accepts the documented b2trade path and a JSON body', async () => {
    const response = await fetch(`${sandbox.authUrl}/api/v1/b2trade/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'DEMO@example.com', password: 'demo' }),
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { user_id: number } };
    expect(data.user_id).toBe(1);
  });

  it('gives every login new tokens', async () => {
    const login = async () =>
      (
        (await (
          await fetch(
            `${sandbox.authUrl}/api/v1/trade/auth`,
            form({ email: 'demo@example.com', password: 'demo' }),
          )
        ).json()) as {
          data: { token: string; session_token: string };
        }
      ).data;
    const [first, second] = [await login(), await login()];
    expect(second.token).not.toBe(first.token);
    expect(second.session_token).not.toBe(first.session_token);
  });

  it('answers missing fields with 400 and the error body', async () => {
    const response = await fetch(`${sandbox.authUrl}/api/v1/trade/auth`, form({ email: 'demo@example.com' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [{ code: 'bad_request', message: 'required: password' }],
    });
    const empty = await fetch(`${sandbox.authUrl}/api/v1/trade/auth`, { method: 'POST' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({
      errors: [{ code: 'bad_request', message: 'required: email, password' }],
    });
  });

  it('answers wrong credentials with 401 and the error body', async () => {
    for (const fields of [
      { email: 'demo@example.com', password: 'wrong' },
      { email: 'nobody@example.com', password: 'demo' },
    ]) {
      const response = await fetch(`${sandbox.authUrl}/api/v1/trade/auth`, form(fields));
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        errors: [{ code: 'unauthorized', message: 'wrong e-mail or password' }],
      });
    }
  });
});
