import { Module } from '@nestjs/common';
import { SandboxAccountsModule } from '../accounts/accounts.module';
import { SandboxCoreModule } from '../sandbox-core.module';
import { SandboxUsersModule } from '../users/users.module';
import { AccountHub } from './account-hub';
import { AccountHubServer } from './account-hub-server';
import { AccountNegotiateController } from './account-negotiate.controller';

/** The private SignalR hub at /ws/account (spec 4.3): the streams `OpenOrders` and `Balance`. */
@Module({
  imports: [SandboxCoreModule, SandboxUsersModule, SandboxAccountsModule],
  controllers: [AccountNegotiateController],
  providers: [AccountHub, AccountHubServer],
  exports: [AccountHub, AccountHubServer],
})
export class AccountHubModule {}
