import { Body, Controller, HttpCode, HttpStatus, Inject, Post } from '@nestjs/common';
import { ExchangeError } from '../rest/exchange-error';
import { LoginSession, LoginSessions } from './login-sessions';
import { SandboxUsers } from './sandbox-users';

/** The login reply's `data` (spec 2.9). */
export interface LoginData {
  readonly id: number;
  readonly email: string;
  readonly country_code: number;
  readonly settings: readonly unknown[];
  readonly status: number;
  readonly logged_at: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly nickname: number;
  readonly photo: string;
  readonly token: string;
  readonly user_id: number;
  readonly session_token: string;
}

export interface LoginReply {
  readonly status: number;
  readonly data: LoginData;
}

const ACTIVE_USER = 1;

/**
 * E-mail and password login, form-encoded or JSON. The spec's path and the path the exchange's own
 * documentation gives are both served.
 */
@Controller()
export class LoginController {
  constructor(
    @Inject(SandboxUsers) private readonly users: SandboxUsers,
    @Inject(LoginSessions) private readonly sessions: LoginSessions,
  ) {}

  @Post(['api/v1/trade/auth', 'api/v1/b2trade/auth'])
  @HttpCode(HttpStatus.OK)
  login(@Body() body: unknown): LoginReply {
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const missing = ['email', 'password'].filter(
      (name) => typeof fields[name] !== 'string' || fields[name] === '',
    );
    if (missing.length > 0) {
      throw ExchangeError.badRequest(`required: ${missing.join(', ')}`);
    }
    const user = this.users.verifyPassword(String(fields.email), String(fields.password));
    if (!user) {
      throw new ExchangeError(HttpStatus.UNAUTHORIZED, 'wrong e-mail or password');
    }
    return { status: HttpStatus.OK, data: loginData(this.sessions.open(user)) };
  }
}

function loginData(session: LoginSession): LoginData {
  const { user } = session;
  const loggedAt = new Date(session.loggedAt).toISOString();
  return {
    id: session.id,
    email: user.email,
    country_code: user.countryCode,
    settings: [],
    status: ACTIVE_USER,
    logged_at: loggedAt,
    created_at: user.createdAt,
    updated_at: loggedAt,
    nickname: user.nickname,
    photo: '',
    token: session.token,
    user_id: user.userId,
    session_token: session.sessionToken,
  };
}
