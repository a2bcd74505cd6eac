import { Module } from '@nestjs/common';
import { SandboxAccountsModule } from '../accounts/accounts.module';
import { SandboxCoreModule } from '../sandbox-core.module';
import { SandboxUsersModule } from '../users/users.module';
import { GatewayModule } from './gateway.module';
import { GatewayOrderCalls } from './order-calls';

/** The gateway's private trading calls and order events, on the users' accounts. */
@Module({
  imports: [SandboxCoreModule, SandboxUsersModule, SandboxAccountsModule, GatewayModule],
  providers: [GatewayOrderCalls],
})
export class GatewayOrderCallsModule {}
