import { Inject, Module, OnModuleDestroy } from '@nestjs/common';
import { SandboxCoreModule } from '../sandbox-core.module';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { SandboxUsers } from '../users/sandbox-users';
import { SandboxUsersModule } from '../users/users.module';
import { SandboxAccounts } from './sandbox-accounts';

/** The users' accounts, shared by every private interface (REST, account hub, gateway). */
@Module({
  imports: [SandboxCoreModule, SandboxUsersModule],
  providers: [
    {
      provide: SandboxAccounts,
      useFactory: (exchange: SandboxExchange, users: SandboxUsers) =>
        new SandboxAccounts(exchange, users.all()),
      inject: [SandboxExchange, SandboxUsers],
    },
  ],
  exports: [SandboxAccounts],
})
export class SandboxAccountsModule implements OnModuleDestroy {
  constructor(@Inject(SandboxAccounts) private readonly accounts: SandboxAccounts) {}

  onModuleDestroy(): void {
    this.accounts.dispose();
  }
}
