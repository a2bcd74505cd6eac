import { LoginSessions } from './login-sessions';
import { demoUser } from './users-file';

describe('login sessions', () => {
  const user = demoUser();

  it('opens sessions with distinct random tokens found by either token', () => {
    const sessions = new LoginSessions({ now: () => 1_000 });
    const first = sessions.open(user);
    const second = sessions.open(user);
    const tokens = [first.sessionToken, first.token, second.sessionToken, second.token];
    expect(new Set(tokens).size).toBe(4);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions.withSessionToken(first.sessionToken)).toBe(first);
    expect(sessions.withToken(first.token)).toBe(first);
    expect(sessions.withToken(first.sessionToken)).toBeUndefined();
    expect(sessions.withSessionToken(first.token)).toBeUndefined();
    expect(second.id).toBe(first.id + 1);
  });

  it('expires a session after its lifetime', () => {
    let now = 0;
    const sessions = new LoginSessions({ now: () => now }, 1_000);
    const session = sessions.open(user);
    now = 999;
    expect(sessions.isLive(session)).toBe(true);
    now = 1_000;
    expect(sessions.isLive(session)).toBe(false);
    expect(sessions.withToken(session.token)).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it('revokes every session at once and announces it', () => {
    const sessions = new LoginSessions({ now: () => 0 });
    const session = sessions.open(user);
    let announced = 0;
    sessions.revoked.subscribe(() => announced++);
    sessions.revokeAll();
    expect(announced).toBe(1);
    expect(sessions.withSessionToken(session.sessionToken)).toBeUndefined();
    expect(sessions.withToken(session.token)).toBeUndefined();
    expect(sessions.isLive(session)).toBe(false);
  });
});
