import { Inject, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { SandboxConfig } from '../config/sandbox-config';
import { SandboxCoreModule } from '../sandbox-core.module';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { LoginController } from './login.controller';
import { LoginSessions } from './login-sessions';
import { SandboxUsers } from './sandbox-users';
import { loadUsers } from './users-file';

/** Sandbox users, their logins and sessions. */
@Module({
  imports: [SandboxCoreModule],
  controllers: [LoginController],
  providers: [
    {
      provide: SandboxUsers,
      useFactory: (config: SandboxConfig) => new SandboxUsers(loadUsers(config.SANDBOX_USERS_FILE)),
      inject: [SandboxConfig],
    },
    {
      provide: LoginSessions,
      useFactory: (exchange: SandboxExchange) => new LoginSessions(exchange.clock),
      inject: [SandboxExchange],
    },
  ],
  exports: [SandboxUsers, LoginSessions],
})
export class SandboxUsersModule implements OnModuleInit, OnModuleDestroy {
  private unsubscribe?: () => void;

  constructor(
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
    @Inject(LoginSessions) private readonly sessions: LoginSessions,
  ) {}

  /** The expire-sessions fault revokes every login at once. */
  onModuleInit(): void {
    this.unsubscribe = this.exchange.faults.changes.subscribe(({ name, enabled }) => {
      if (name === 'expire-sessions' && enabled) this.sessions.revokeAll();
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }
}
